import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  agentHooks,
  type HookRun,
  HookRunner,
  type HooksConfig,
  matchesHook,
} from "../../src/hooks/index.js";

async function runnerFor(config: HooksConfig) {
  const cwd = await mkdtemp(join(tmpdir(), "panto-hooks-"));
  const runs: HookRun[] = [];
  const warnings: string[] = [];
  const runner = new HookRunner({
    config,
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    sessionId: "s-1",
    transcriptPath: join(cwd, "session.jsonl"),
    redact: (text) => text.replaceAll("hunter2-secret", "[redacted X]"),
    report: (run) => runs.push(run),
    warn: (message) => warnings.push(message),
  });
  return { cwd, runs, warnings, hooks: agentHooks(runner) };
}

describe("matchesHook", () => {
  it("matches all for absent, empty and *; names whole and case-insensitively; else a whole-subject regex", () => {
    for (const matcher of [undefined, "", "*"]) expect(matchesHook(matcher, "bash")).toBe(true);
    expect(matchesHook("Bash", "bash")).toBe(true);
    expect(matchesHook("edit|write", "write")).toBe(true);
    expect(matchesHook("edit|write", "writer")).toBe(false);
    expect(matchesHook("ba", "bash")).toBe(false);
    expect(matchesHook("mcp__.*", "mcp__everything__echo")).toBe(true);
    expect(matchesHook("mcp__.*", "bash")).toBe(false);
  });
});

describe("HookRunner", { timeout: 30_000 }, () => {
  it("cannot block an overflow compaction: exit 2 is a warning and the verdict lets it run", async () => {
    const { hooks, runs, warnings } = await runnerFor({
      PreCompact: [{ hooks: [{ type: "command", command: "echo 'not now' >&2; exit 2" }] }],
    });
    const verdict = await hooks.preCompact({ trigger: "overflow", contextTokens: 10, keepVerbatimTokens: 5 });
    expect(verdict).toEqual({ blocked: false });
    expect(runs).toMatchObject([{ event: "PreCompact", exitCode: 2, blocked: false, timedOut: false }]);
    expect(warnings).toEqual([
      "PreCompact hook `echo 'not now' >&2; exit 2` asked to block, which it cannot (an overflow compaction cannot be blocked: the request does not fit); going on. Its reason: not now",
    ]);
  });

  it("runs every matching group in order, joins the reasons of those that block, and redacts them", async () => {
    const { hooks, runs, cwd } = await runnerFor({
      PreToolUse: [
        {
          matcher: "bash",
          hooks: [{ type: "command", command: "cat > stdin.json; echo 'first hunter2-secret' >&2; exit 2" }],
        },
        { matcher: "read", hooks: [{ type: "command", command: "exit 2" }] },
        { hooks: [{ type: "command", command: `echo '{"decision": "block", "reason": "second"}'` }] },
      ],
    });
    const verdict = await hooks.preToolUse({
      type: "tool-call",
      id: "c1",
      name: "bash",
      arguments: { command: "ls" },
    });
    expect(verdict).toEqual({ blocked: true, reason: "first [redacted X]\nsecond" });
    expect(runs.map((run) => run.command)).toEqual([
      // The command is reported redacted too.
      "cat > stdin.json; echo 'first [redacted X]' >&2; exit 2",
      `echo '{"decision": "block", "reason": "second"}'`,
    ]);
    expect(JSON.parse(await readFile(join(cwd, "stdin.json"), "utf8"))).toEqual({
      session_id: "s-1",
      transcript_path: join(cwd, "session.jsonl"),
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "bash",
      tool_input: { command: "ls" },
      tool_use_id: "c1",
    });
  });

  it("reports a command that exits 0 with plain text as no decision, and one killed by a signal as a warning", async () => {
    const { hooks, warnings, runs } = await runnerFor({
      Stop: [
        { hooks: [{ type: "command", command: "echo all good" }] },
        { hooks: [{ type: "command", command: "kill -9 $$" }] },
      ],
    });
    await hooks.stop("the answer");
    expect(runs.map((run) => run.exitCode)).toEqual([0, null]);
    expect(warnings).toEqual(["Stop hook `kill -9 $$` was killed by a signal (not a block; going on)"]);
  });
});
