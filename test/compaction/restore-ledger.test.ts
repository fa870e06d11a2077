import { describe, expect, it } from "vitest";
import {
  checkClaims,
  deletedPaths,
  errorLine,
  extractLedger,
  groupTurns,
  withRestoredFacts,
} from "../../src/compaction/index.js";
import {
  type AssistantMessage,
  type CompactionLedger,
  type CompactionRecord,
  bashRunOutcome as commandOutcome,
  type Message,
  type ToolResultMessage,
} from "../../src/core/index.js";
import {
  blockParts,
  composeCompactionSummary,
  RESTORED_FACTS_HEADING,
  recallPointer,
} from "../../src/session/index.js";
import { formatCommandResult } from "../../src/tools/bash-tool.js";

let callCount = 0;
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
/** One tool call and its result, as two messages. */
function tool(name: string, args: Record<string, unknown>, text: string, isError = false): Message[] {
  const id = `c${++callCount}`;
  const call: AssistantMessage = {
    role: "assistant",
    provider: "p",
    api: "openai-chat",
    model: "m",
    stopReason: "tool-use",
    content: [{ type: "tool-call", id, name, arguments: args }],
  };
  const result: ToolResultMessage = {
    role: "tool",
    content: [
      { type: "tool-result", toolCallId: id, toolName: name, isError, content: [{ type: "text", text }] },
    ],
  };
  return [call, result];
}
const bash = (command: string, output: string, exitCode: number): Message[] =>
  tool("bash", { command }, `${output}\n\nExit code: ${exitCode}`, exitCode !== 0);

const conversation: Message[] = [
  user("start the parser"),
  ...tool("write", { path: "src/parser.ts", content: "x" }, "Created src/parser.ts: 1 bytes, 1 line"),
  ...tool("read", { path: "src/lexer.ts" }, "export {}"),
  ...bash(
    "npm test",
    "> panto test\n\nFAIL test/parser.test.ts > keeps comments\nAssertionError: expected 1",
    1,
  ),
  user("fix it"),
  ...tool("edit", { path: "./src/parser.ts", old_string: "x", new_string: "y" }, "Replaced 1 occurrence"),
  ...tool("write", { path: "src/denied.ts", content: "x" }, "The user did not allow this tool call.", true),
  ...bash("rm -f tmp/a.log build/out.js && npm run build", "built", 0),
  ...bash("npm test", "> panto test\n\nTests  3 failed | 9 passed", 1),
];

describe("the ledger of the summarised turns", () => {
  it("lists files changed with their turns and each command's latest outcome with its first error line, newest first", () => {
    const ledger = extractLedger(groupTurns(conversation), [4, 5]);
    expect(ledger).toEqual({
      files: [
        { path: "build/out.js", changes: [{ change: "deleted", turn: 5 }] },
        { path: "tmp/a.log", changes: [{ change: "deleted", turn: 5 }] },
        {
          path: "./src/parser.ts",
          changes: [
            { change: "edited", turn: 5 },
            { change: "created", turn: 4 },
          ],
        },
      ],
      commands: [
        { command: "npm test", turn: 5, exitCode: 1, ending: "exit 1", error: "Tests  3 failed | 9 passed" },
        { command: "rm -f tmp/a.log build/out.js && npm run build", turn: 5, exitCode: 0, ending: "exit 0" },
      ],
    });
  });

  it("carries the previous compaction's ledger on, the newer turns winning, and counts what the caps leave out", () => {
    const previous: CompactionLedger = {
      files: [
        { path: "src/parser.ts", changes: [{ change: "written", turn: 1 }] },
        { path: "old.md", changes: [{ change: "edited", turn: 2 }] },
      ],
      commands: [
        { command: "npm test", turn: 2, exitCode: 0, ending: "exit 0" },
        { command: "make", turn: 1, exitCode: 2, ending: "exit 2" },
      ],
    };
    const ledger = extractLedger(groupTurns(conversation), [4, 5], previous, {
      files: 2,
      commands: 2,
      changesPerFile: 2,
    });
    expect(ledger?.files.map((file) => file.path)).toEqual(["build/out.js", "tmp/a.log"]);
    expect(ledger?.moreFiles).toBe(2);
    expect(ledger?.commands.map((command) => [command.command, command.exitCode])).toEqual([
      ["npm test", 1],
      ["rm -f tmp/a.log build/out.js && npm run build", 0],
    ]);
    expect(ledger?.moreCommands).toBe(1);
    const merged = extractLedger(groupTurns(conversation), [4, 5], previous);
    expect(merged?.files.find((file) => file.path === "./src/parser.ts")?.changes).toEqual([
      { change: "edited", turn: 5 },
      { change: "created", turn: 4 },
      { change: "written", turn: 1 },
    ]);
  });

  it("reads deletions conservatively and error lines as errors first", () => {
    expect(deletedPaths('rm -rf dist && git rm -q old.ts; rm "$X" *.log ~/x')).toEqual(["dist", "old.ts"]);
    expect(errorLine("> build\n\nsrc/a.ts(3,1): error TS2304: Cannot find name 'x'.\n")).toBe(
      "src/a.ts(3,1): error TS2304: Cannot find name 'x'.",
    );
    expect(errorLine("just output\nmore")).toBe("just output");
  });

  it("reads how a command ended from the bash tool's own closing line", () => {
    for (const [result, expected] of [
      [
        { exitCode: 3, output: "out\n", timedOut: false, aborted: false, signal: null },
        { exitCode: 3, ending: "exit 3", output: "out" },
      ],
      [
        { exitCode: null, output: "", timedOut: true, aborted: false, signal: null },
        { exitCode: null, ending: "timed out", output: "(no output)" },
      ],
      [
        { exitCode: null, output: "x", timedOut: false, aborted: true, signal: null },
        { exitCode: null, ending: "interrupted", output: "x" },
      ],
      [
        { exitCode: null, output: "x", timedOut: false, aborted: false, signal: "SIGKILL" },
        { exitCode: null, ending: "killed by SIGKILL", output: "x" },
      ],
    ] as const) {
      const text = (formatCommandResult(result as never, 1000).content[0] as { text: string }).text;
      expect(commandOutcome(text)).toEqual(expected);
    }
    expect(commandOutcome("The user did not allow this tool call.")).toBeUndefined();
  });
});

describe("the claim check", () => {
  const failing: CompactionLedger = {
    files: [],
    commands: [
      { command: "npm test", turn: 8, exitCode: 1, ending: "exit 1", error: "FAIL test/parser.test.ts" },
      { command: "npm run build", turn: 7, exitCode: 0, ending: "exit 0" },
    ],
  };

  it("quotes a plain claim that the tests pass when the latest test run failed", () => {
    expect(checkClaims("Fixed the parser. All tests pass now.", failing, [])).toEqual([
      {
        claim: "All tests pass now.",
        evidence: 'the latest run of `npm test` (turn 8) exited 1: "FAIL test/parser.test.ts"',
      },
    ]);
  });

  it("says nothing when the latest run passed, or the sentence hedges, negates or names a passing command", () => {
    const passing: CompactionLedger = {
      files: [],
      commands: [{ command: "npm test", turn: 9, exitCode: 0, ending: "exit 0" }],
    };
    expect(checkClaims("All tests pass now.", passing, [])).toEqual([]);
    for (const summary of [
      "The tests should pass once the fix lands.",
      "Tests do not pass yet.",
      "Two tests still fail; the rest pass.",
      "`npm run build` succeeded.",
      "The build is clean.",
      "Everything is done.",
    ])
      expect({ summary, found: checkClaims(summary, failing, []) }).toEqual({ summary, found: [] });
  });

  it("checks a named command and a claimed file change against the ledger", () => {
    expect(checkClaims("- `npm test` passes", failing, [])).toHaveLength(1);
    const ledger: CompactionLedger = {
      files: [{ path: "src/a.ts", changes: [{ change: "edited", turn: 2 }] }],
      commands: [],
    };
    expect(checkClaims("Updated src/b.ts to use the new API.", ledger, ["src/b.ts", "src/a.ts"])).toEqual([
      {
        claim: "Updated src/b.ts to use the new API.",
        evidence:
          "src/b.ts was read in the summarised turns, but no write, edit or deletion of it is on record",
      },
    ]);
    expect(checkClaims("Updated src/a.ts.", ledger, ["src/a.ts"])).toEqual([]);
    expect(checkClaims("Updated a.ts.", ledger, ["src/a.ts"])).toEqual([]);
    expect(checkClaims("Updated src/c.ts.", ledger, ["src/a.ts"])).toEqual([]);
  });
});

describe("restored facts: one mechanism, one section", () => {
  const record: CompactionRecord = {
    summary: "Wrote the parser; all tests pass.",
    trigger: "manual",
    model: "m/x",
    fellBack: false,
    turnsSummarised: 2,
    turnsKept: 0,
    tokensSummarised: 1,
    tokensKept: 0,
    summaryTokens: 1,
    sizeSources: { usage: 0, estimate: 2 },
    turns: { through: 5, kept: [6], total: 6 },
  };

  it("adds the ledger, an Unverified line and the facts the ledger does not carry under one heading, after the pointer", () => {
    const checked = withRestoredFacts(record, groupTurns(conversation), { turnNumbers: [4, 5] });
    // Newest first; the changed files and the commands are in the ledger, so not repeated here.
    expect(checked.restored).toEqual([
      { kind: "error", text: "> panto test" },
      { kind: "error", text: "The user did not allow this tool call." },
      { kind: "path", text: "src/denied.ts" },
      { kind: "path", text: "src/lexer.ts" },
    ]);
    expect(checked.unverified).toHaveLength(1);
    const block = composeCompactionSummary({ ...blockParts(checked), pins: ["be brief"] });
    expect(block.split(RESTORED_FACTS_HEADING)).toHaveLength(2);
    expect(block).toBe(
      [
        "Wrote the parser; all tests pass.",
        "",
        recallPointer(5),
        "",
        RESTORED_FACTS_HEADING,
        "Files changed, newest first:",
        "- build/out.js: deleted in turn 5",
        "- tmp/a.log: deleted in turn 5",
        "- ./src/parser.ts: edited in turn 5; created in turn 4",
        "Commands, the latest run of each, newest first:",
        "- npm test → exit 1 in turn 5; first error: Tests  3 failed | 9 passed",
        "- rm -f tmp/a.log build/out.js && npm run build → exit 0 in turn 5",
        "Not in the summary:",
        "- error: > panto test",
        "- error: The user did not allow this tool call.",
        "- path: src/denied.ts",
        "- path: src/lexer.ts",
        'Unverified: the summary says "Wrote the parser; all tests pass.", but the latest run of `npm test` (turn 5) exited 1: "Tests  3 failed | 9 passed".',
        "",
        "## Pinned notes (from the user, verbatim; always in force)",
        "1. be brief",
      ].join("\n"),
    );
  });

  it("leaves the summary itself unchanged and adds no Unverified line when the latest run passed", () => {
    const passing = [...conversation, ...bash("npm test", "12 passed", 0)];
    const checked = withRestoredFacts(record, groupTurns(passing), { turnNumbers: [4, 5] });
    expect(checked.summary).toBe(record.summary);
    expect(checked.unverified).toBeUndefined();
    expect(checked.ledger?.commands[0]).toEqual({
      command: "npm test",
      turn: 5,
      exitCode: 0,
      ending: "exit 0",
    });
  });
});
