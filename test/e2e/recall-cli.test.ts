import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { jsonEvents } from "./run-cli.js";

/**
 * recall end to end: the built CLI as a subprocess against the fake Anthropic server, a scripted
 * model calling the real recall tool on the real session file, across real compactions.
 */
const TIMEOUT = 120_000;
const MODEL = "anthropic/claude-active";
const closeAfter = closeAfterEach();

const bodyOf = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body ?? null);
const toolsOf = (request: RecordedRequest | undefined): string =>
  JSON.stringify((request?.body as { tools?: unknown } | undefined)?.tools);
/** The text of the last tool result a request carries (what the model was told). */
function lastToolResult(request: RecordedRequest | undefined): string {
  const messages = ((request?.body as { messages?: unknown[] } | undefined)?.messages ?? []) as Array<{
    content?: unknown;
  }>;
  for (const message of [...messages].reverse()) {
    if (!Array.isArray(message.content)) continue;
    const result = message.content.find((block: { type?: string }) => block.type === "tool_result") as
      | { content?: unknown }
      | undefined;
    if (result !== undefined) return JSON.stringify(result.content);
  }
  return "";
}
const recallCall = (id: string, args: Record<string, unknown>) => ({
  type: "tool-calls" as const,
  calls: [{ id, name: "recall", arguments: args }],
});

describe("recall through the CLI", () => {
  it(
    "finds a fact the summary left out in a summarised turn and reads the turn back whole, the tool list unchanged by the compaction",
    async () => {
      const t = await compactionCliProject(MODEL, closeAfter);
      await t.seed("The staging database listens on port 48213; keep that in mind.", "now fix the parser");
      const before = t.server.requests.at(-1);

      t.server.enqueue({ type: "text", text: "## Goal\nFix the parser.\n## Progress\nParser work started." });
      const compacted = await t.run("/compact");
      expect(compacted.code, compacted.stderr).toBe(0);

      t.server.enqueue(
        recallCall("toolu_r1", { query: "staging database port" }),
        recallCall("toolu_r2", { turn: 1 }),
        { type: "text", text: "It is 48213." },
      );
      const asked = await t.run("which port does the staging database use?");
      expect(asked.code, asked.stderr).toBe(0);
      expect(asked.stdout).toContain("It is 48213.");
      const [search, read, answer] = t.server.requests.slice(-3);
      // The block says what it stands for and where the rest is.
      expect(bodyOf(search)).toContain(
        "This summary stands for turns 1 to 2 of this session. Their full text is still on record: the `recall` tool searches it and reads any turn back by its number.",
      );
      expect(bodyOf(search)).not.toContain("48213");
      // The question itself (turn 3) matches too; turn 1 is found, marked summarised.
      expect(lastToolResult(read)).toMatch(/\d\. turn 1 · [^·]+ · user · summarised/);
      expect(lastToolResult(read)).toContain("listens on port 48213");
      expect(lastToolResult(answer)).toContain("Turn 1 of this session (of 3)");
      expect(lastToolResult(answer)).toContain(
        "[User]: The staging database listens on port 48213; keep that in mind.",
      );
      expect(lastToolResult(answer)).toContain("[Assistant]: answer to The staging database");
      // recall is in every request's tools, before and after the compaction, byte for byte.
      expect(toolsOf(before)).toContain('"name":"recall"');
      expect(toolsOf(answer)).toBe(toolsOf(before));
      expect(toolsOf(search)).toBe(toolsOf(before));
    },
    TIMEOUT,
  );

  it(
    "marks a read that a later edit made stale, and redacts a secret an old tool result printed before it was known",
    async () => {
      const secret = "sk-proj-Zx81uQq0Lr55ttW2cA9";
      const t = await compactionCliProject(MODEL, closeAfter);
      await writeFile(join(t.project, "limits.txt"), "timeout = 30\n");
      t.server.enqueue(
        { type: "tool-calls", calls: [{ id: "toolu_1", name: "read", arguments: { path: "limits.txt" } }] },
        {
          type: "tool-calls",
          calls: [{ id: "toolu_2", name: "bash", arguments: { command: `echo deploy token ${secret}` } }],
        },
        { type: "text", text: "read it" },
      );
      expect((await t.run("look at the limits", ["--allow-tools"])).code).toBe(0);
      t.server.enqueue(
        {
          type: "tool-calls",
          calls: [
            {
              id: "toolu_3",
              name: "edit",
              arguments: { path: "limits.txt", old_string: "timeout = 30", new_string: "timeout = 60" },
            },
          ],
        },
        { type: "text", text: "raised" },
      );
      expect((await t.run("raise the timeout", ["--allow-tools"])).code).toBe(0);
      t.server.enqueue({ type: "text", text: "Looked at limits, raised the timeout." });
      expect((await t.run("/compact")).code).toBe(0);

      t.server.enqueue(
        recallCall("toolu_r1", { query: "timeout", kind: "read" }),
        recallCall("toolu_r2", { query: "deploy token" }),
        { type: "text", text: "done" },
      );
      const asked = await t.run("what was the timeout, and the token?", ["--json"], {
        OPENAI_API_KEY: secret,
      });
      expect(asked.code, asked.stderr).toBe(0);
      const [, staleAnswer, tokenAnswer] = t.server.requests.slice(-3);
      expect(lastToolResult(staleAnswer)).toMatch(
        /turn 1 · [^\n]* tool result of read limits\.txt · summarised · stale: limits\.txt was edited in turn 2, after this read/,
      );
      // Written to the file before the key was known; what recall hands back is redacted now.
      expect(lastToolResult(tokenAnswer)).toContain("deploy token [redacted OPENAI_API_KEY]");
      expect(lastToolResult(tokenAnswer)).not.toContain(secret);
      expect(asked.stdout).not.toContain(secret);
      expect(jsonEvents(asked.stdout).filter((event) => event.type === "tool_result")).toHaveLength(2);
    },
    TIMEOUT,
  );
});

describe("the restored facts' ledger and claim check through the CLI", () => {
  async function project() {
    const t = await compactionCliProject(MODEL, closeAfter);
    await writeFile(join(t.project, "package.json"), JSON.stringify({ scripts: { test: "node check.cjs" } }));
    const runTests = async (passing: boolean, prompt: string) => {
      await writeFile(
        join(t.project, "check.cjs"),
        passing
          ? 'console.log("12 tests passed");\n'
          : 'console.log("FAIL parser keeps comments");\nprocess.exit(1);\n',
      );
      t.server.enqueue(
        {
          type: "tool-calls",
          calls: [{ id: `toolu_${prompt}`, name: "bash", arguments: { command: "npm test" } }],
        },
        { type: "text", text: "ran them" },
      );
      const result = await t.run(prompt, ["--allow-tools"]);
      expect(result.code, result.stderr).toBe(0);
    };
    return { ...t, runTests };
  }
  const CLAIM = "## Progress\nFixed the parser. All tests pass now.";

  it(
    "adds an Unverified line quoting the summary and the failed run, and says so in the report and the JSON event",
    async () => {
      const t = await project();
      await t.runTests(true, "p1");
      await t.runTests(false, "p2");
      t.server.enqueue({ type: "text", text: CLAIM });
      const printed = await t.run("/compact");
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout).toContain("  ledger:   0 files changed, the latest run of 1 command");
      expect(printed.stdout).toMatch(
        /Unverified: the summary says "All tests pass now\.", but the latest run of `npm test` \(turn 2\) exited 1: "FAIL parser keeps comments"\./,
      );
      t.server.enqueue({ type: "text", text: "ok" });
      expect((await t.run("next")).code).toBe(0);
      const block = bodyOf(t.server.requests.at(-1));
      expect(block).toContain(
        "Commands, the latest run of each, newest first:\\n- npm test → exit 1 in turn 2; first error: FAIL parser keeps comments",
      );
      expect(block).toContain(
        'Unverified: the summary says \\"All tests pass now.\\", but the latest run of `npm test`',
      );
      expect(block).toContain(CLAIM.replaceAll("\n", "\\n"));

      await t.runTests(false, "p3");
      t.server.enqueue({ type: "text", text: CLAIM });
      const json = await t.run("/compact", ["--json"]);
      expect(json.code, json.stderr).toBe(0);
      const event = jsonEvents(json.stdout).find((candidate) => candidate.type === "compaction");
      expect(event).toMatchObject({
        through_turn: 4,
        unverified: [
          {
            claim: "All tests pass now.",
            evidence: 'the latest run of `npm test` (turn 4) exited 1: "FAIL parser keeps comments"',
          },
        ],
        ledger: { files: [], commands: [{ command: "npm test", turn: 4, exit_code: 1, ending: "exit 1" }] },
      });
    },
    TIMEOUT,
  );

  it(
    "adds no Unverified line when the latest run passed",
    async () => {
      const t = await project();
      await t.runTests(false, "p1");
      await t.runTests(true, "p2");
      t.server.enqueue({ type: "text", text: CLAIM });
      const json = await t.run("/compact", ["--json"]);
      expect(json.code, json.stderr).toBe(0);
      const event = jsonEvents(json.stdout).find((candidate) => candidate.type === "compaction");
      expect(event).toMatchObject({
        unverified: [],
        ledger: { commands: [{ command: "npm test", turn: 2, exit_code: 0, ending: "exit 0" }] },
      });
      t.server.enqueue({ type: "text", text: "ok" });
      expect((await t.run("next")).code).toBe(0);
      expect(bodyOf(t.server.requests.at(-1))).not.toContain("Unverified");
    },
    TIMEOUT,
  );
});
