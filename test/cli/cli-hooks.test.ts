import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const KEY = "sk-ant-test-key-0123456789";
let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A hook command appending its stdin (one JSON line) to `file` in the project. */
function record(file: string): { type: "command"; command: string } {
  return { type: "command", command: `cat >> "$PANTO_PROJECT_DIR/${file}"` };
}

async function project(hooks: unknown, extra: Record<string, unknown> = {}) {
  const box = await makeSandbox();
  server = await startFakeAnthropicServer();
  await mkdir(join(box.project, ".panto"));
  await writeFile(
    join(box.project, ".panto", "config.json"),
    JSON.stringify({ model: MODEL, hooks, ...extra }),
  );
  const env = { ...box.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
  const run = (args: string[]) => runPanto(args, { cwd: box.project, env });
  const lines = async (file: string) =>
    (await readFile(join(box.project, file), "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { box, run, lines, fake: server };
}

/** Every text a request sent as tool results (Anthropic shape). */
function toolResultTexts(request: RecordedRequest | undefined): string[] {
  const messages = (request?.body as { messages?: Array<{ content: unknown }> } | undefined)?.messages ?? [];
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? message.content
          .filter((block: { type?: string }) => block.type === "tool_result")
          .map((block: { content?: unknown }) => JSON.stringify(block.content))
      : [],
  );
}

describe("hooks (built CLI against a fake Anthropic server)", { timeout: 120_000 }, () => {
  it("runs each event's hooks with its JSON on stdin and reports every run as a hook event", async () => {
    const { run, lines, fake } = await project({
      SessionStart: [{ hooks: [record("events.jsonl")] }],
      UserPromptSubmit: [{ hooks: [record("events.jsonl")] }],
      PreToolUse: [{ matcher: "ls|glob", hooks: [record("events.jsonl")] }],
      PostToolUse: [{ matcher: "*", hooks: [record("events.jsonl")] }],
      Stop: [{ hooks: [record("events.jsonl")] }],
    });
    fake.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_1", name: "ls", arguments: { path: "." } }] },
      { type: "text", text: "There is a .git folder." },
    );
    const result = await run(["--json", "-p", "what is here?"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    const started: Record<string, unknown> = events[0] ?? {};
    expect(events.filter((event) => event.type === "hook").map((event) => event.event)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
    for (const hook of events.filter((event) => event.type === "hook")) {
      expect(hook).toMatchObject({ exit_code: 0, blocked: false, timed_out: false });
      expect(typeof hook.duration_ms).toBe("number");
      expect(hook.command).toContain("cat >>");
    }
    const inputs = await lines("events.jsonl");
    const common = {
      session_id: started.session_id,
      transcript_path: started.session_path,
      cwd: started.cwd,
    };
    expect(inputs).toEqual([
      { ...common, hook_event_name: "SessionStart", source: "startup" },
      { ...common, hook_event_name: "UserPromptSubmit", prompt: "what is here?" },
      {
        ...common,
        hook_event_name: "PreToolUse",
        tool_name: "ls",
        tool_input: { path: "." },
        tool_use_id: "toolu_1",
      },
      {
        ...common,
        hook_event_name: "PostToolUse",
        tool_name: "ls",
        tool_input: { path: "." },
        tool_use_id: "toolu_1",
        tool_response: { is_error: false, text: expect.stringContaining(".git/") },
      },
      {
        ...common,
        hook_event_name: "Stop",
        stop_hook_active: false,
        last_assistant_message: "There is a .git folder.",
      },
    ]);
  });

  it("a PreToolUse hook exiting 2 denies the call: it never runs and the model reads the hook's reason", async () => {
    const { box, run, fake } = await project({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: "echo 'shell commands are off in this repo' >&2; exit 2" }],
        },
        {
          matcher: "^wr.*",
          hooks: [
            {
              type: "command",
              command: `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"writes need review"}}'`,
            },
          ],
        },
      ],
    });
    fake.enqueue(
      {
        type: "tool-calls",
        calls: [
          { id: "toolu_b", name: "bash", arguments: { command: "touch made-by-bash.txt" } },
          { id: "toolu_w", name: "write", arguments: { path: "made-by-write.txt", content: "x" } },
        ],
      },
      { type: "text", text: "understood" },
    );
    const result = await run(["--json", "--allow-tools", "-p", "make two files"]);
    expect(result.code).toBe(0);
    await expect(readFile(join(box.project, "made-by-bash.txt"))).rejects.toThrow();
    await expect(readFile(join(box.project, "made-by-write.txt"))).rejects.toThrow();
    const results = toolResultTexts(fake.requests[1]);
    expect(results).toHaveLength(2);
    expect(results[0]).toContain("Blocked by a PreToolUse hook: shell commands are off in this repo");
    expect(results[1]).toContain("Blocked by a PreToolUse hook: writes need review");
    const hooks = jsonLines(result.stdout).filter((event) => event.type === "hook");
    expect(hooks.map((hook) => [hook.exit_code, hook.blocked])).toEqual([
      [2, true],
      [0, true],
    ]);
  });

  it("a UserPromptSubmit hook exiting 2 blocks the prompt: no request, nothing written, its stderr shown", async () => {
    const { run, fake } = await project({
      UserPromptSubmit: [
        { hooks: [{ type: "command", command: "echo 'no prompts on Fridays' >&2; exit 2" }] },
      ],
    });
    const result = await run(["-p", "hello"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("prompt blocked by a UserPromptSubmit hook: no prompts on Fridays");
    expect(fake.requests).toHaveLength(0);
  });

  it("a hook that hangs is killed at its timeout, reported, and the session goes on", async () => {
    const { box, run } = await project({
      UserPromptSubmit: [
        {
          hooks: [
            { type: "command", command: `echo $$ > "$PANTO_PROJECT_DIR/hook.pid"; sleep 60`, timeout: 0.5 },
          ],
        },
      ],
    });
    const result = await run(["--json", "-p", "hello"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "hook")).toMatchObject({
      event: "UserPromptSubmit",
      exit_code: null,
      timed_out: true,
      blocked: false,
    });
    expect(events.find((event) => event.type === "warning")?.message).toContain(
      "timed out after 0.5s and was killed; going on without it",
    );
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "ok" });
    const pid = Number(await readFile(join(box.project, "hook.pid"), "utf8"));
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it("a hook exiting 1 is a warning with its stderr and blocks nothing; hooks get no provider key", async () => {
    const { box, run, fake } = await project({
      PostToolUse: [
        {
          hooks: [
            {
              type: "command",
              command: `env > "$PANTO_PROJECT_DIR/hook.env"; echo 'lint crashed' >&2; exit 1`,
            },
          ],
        },
      ],
    });
    fake.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_1", name: "ls", arguments: { path: "." } }] },
      { type: "text", text: "done listing" },
    );
    const result = await run(["-p", "list"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("done listing\n");
    expect(result.stderr).toContain(
      "PostToolUse hook `env > \"$PANTO_PROJECT_DIR/hook.env\"; echo 'lint crashed' >&2; exit 1` exited with status 1 (not a block; going on): lint crashed",
    );
    const env = await readFile(join(box.project, "hook.env"), "utf8");
    expect(env).toContain(`PANTO_PROJECT_DIR=${box.project}`);
    expect(env).not.toContain(KEY);
    expect(env).not.toContain("ANTHROPIC_API_KEY");
  });

  it("a hook's stderr cannot drive the terminal: escape sequences reach stderr as visible text in print and JSON mode", async () => {
    const { run, fake } = await project({
      UserPromptSubmit: [
        {
          hooks: [
            { type: "command", command: String.raw`printf 'bad \033]0;pwned\007\033[2Jgone\n' >&2; exit 1` },
          ],
        },
      ],
    });
    fake.enqueue({ type: "text", text: "ok" }, { type: "text", text: "ok" });
    for (const args of [
      ["-p", "hello"],
      ["--json", "-p", "hello"],
    ]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain(String.raw`bad \u001b]0;pwned\u0007\u001b[2Jgone`);
      expect(result.stderr).not.toContain("\u001b");
      expect(result.stderr).not.toContain("\u0007");
    }
  });

  it("PreCompact exiting 2 blocks a manual /compact; PostCompact receives the summary of one that runs", async () => {
    const { box, run, lines, fake } = await project(
      {
        PreCompact: [
          { matcher: "manual", hooks: [record("compact.jsonl")] },
          {
            matcher: "manual",
            hooks: [
              {
                type: "command",
                command: `test -f "$PANTO_PROJECT_DIR/allow" || { echo 'compaction is frozen' >&2; exit 2; }`,
              },
            ],
          },
        ],
        PostCompact: [{ hooks: [record("compact.jsonl")] }],
      },
      { keep_verbatim_tokens: 0 },
    );
    expect((await run(["-p", "first question"])).code).toBe(0);
    expect((await run(["-c", "-p", "second question"])).code).toBe(0);
    const requestsBefore = fake.requests.length;

    const blocked = await run(["-c", "--json", "-p", "/compact keep names"]);
    expect(blocked.code).toBe(1);
    const events = jsonLines(blocked.stdout);
    expect(events.find((event) => event.type === "error")).toMatchObject({
      message: "compaction blocked by a PreCompact hook: compaction is frozen; the context is unchanged",
    });
    expect(events.filter((event) => event.type === "hook").map((event) => event.blocked)).toEqual([
      false,
      true,
    ]);
    expect(fake.requests).toHaveLength(requestsBefore);
    const session = String(events[0]?.session_path);
    expect(await readFile(session, "utf8")).not.toContain('"type":"compaction"');

    await writeFile(join(box.project, "allow"), "");
    fake.enqueue({ type: "text", text: "SUMMARY: two questions were asked." });
    const compacted = await run(["-c", "--json", "-p", "/compact keep names"]);
    expect(compacted.code).toBe(0);
    const inputs = await lines("compact.jsonl");
    expect(inputs.map((input) => input.hook_event_name)).toEqual(["PreCompact", "PreCompact", "PostCompact"]);
    expect(inputs[0]).toMatchObject({
      trigger: "manual",
      custom_instructions: "keep names",
      keep_verbatim_tokens: 0,
    });
    expect(inputs[0]?.context_tokens).toBeGreaterThan(0);
    expect(inputs[2]).toMatchObject({
      trigger: "manual",
      compact_summary: expect.stringContaining("SUMMARY: two questions were asked."),
      model: MODEL,
      turns_summarised: 2,
      turns_kept: 0,
    });
  });

  it("rejects a hooks config with an unknown event or a bad matcher, naming the key", async () => {
    const { run } = await project({ PreToolUze: [{ hooks: [] }] });
    const unknown = await run(["-p", "hi"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain(
      'unknown key "hooks.PreToolUze" (allowed: SessionStart, UserPromptSubmit, PreToolUse',
    );
    const { run: runBad } = await project({ PreToolUse: [{ matcher: "(", hooks: [] }] });
    const bad = await runBad(["-p", "hi"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      '"hooks.PreToolUse.0.matcher" must be a tool name, names joined by "|", "*", or a valid regular expression',
    );
  });
});
