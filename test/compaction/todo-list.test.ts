import { describe, expect, it } from "vitest";
import {
  evidenceState,
  latestTodoList,
  todoFlag,
  todoProgress,
  tooManyInProgress,
} from "../../src/compaction/index.js";
import type { CompactionLedger, TodoItem } from "../../src/core/index.js";
import { assistant, call, results, user } from "./builders.js";

const done = (evidence: string): TodoItem => ({ content: "it", status: "completed", evidence });

const ledger: CompactionLedger = {
  files: [
    { path: "src/parser.ts", changes: [{ change: "edited", turn: 6 }] },
    {
      path: "src/old.ts",
      changes: [
        { change: "deleted", turn: 4 },
        { change: "edited", turn: 2 },
      ],
    },
    { path: "src/lexer.ts", changes: [{ change: "edited", turn: 3 }] },
  ],
  // Newest first, as extractLedger lists them.
  commands: [
    { command: "npm run lint", turn: 7, exitCode: 2, ending: "exit 2" },
    { command: "npm test", turn: 5, exitCode: 0, ending: "exit 0" },
    { command: "npm run build", turn: 4, exitCode: null, ending: "timed out" },
  ],
};

describe("a completed item's flag", () => {
  it("is set when its command's latest run failed, naming the run", () => {
    expect(todoFlag(done("npm run lint"), ledger)).toBe(
      "completed, but the latest `npm run lint` (turn 7) exited 2",
    );
    expect(todoFlag(done("npm run build"), ledger)).toBe(
      "completed, but the latest `npm run build` (turn 4) timed out",
    );
  });

  it("matches the command as the claim check does, or the command with more arguments", () => {
    expect(todoFlag(done("`npm run lint` is clean"), ledger)).toContain("exited 2");
    expect(todoFlag(done("npm run"), ledger)).toContain("`npm run lint`");
  });

  it("is not set when the command passed, the evidence is unknown, or the item is not completed", () => {
    expect(todoFlag(done("npm test"), ledger)).toBeUndefined();
    expect(todoFlag(done("cargo test"), ledger)).toBeUndefined();
    expect(
      todoFlag({ content: "it", status: "in_progress", evidence: "npm run lint" }, ledger),
    ).toBeUndefined();
    expect(todoFlag({ content: "it", status: "completed" }, ledger)).toBeUndefined();
    expect(todoFlag(done("npm run lint"), undefined)).toBeUndefined();
  });

  it("is set when its file changed after the latest passing run, or was deleted last", () => {
    expect(todoFlag(done("src/parser.ts"), ledger)).toBe(
      "completed, but `src/parser.ts` was edited in turn 6, after the latest passing run (`npm test`, turn 5)",
    );
    expect(todoFlag(done("./src/old.ts"), ledger)).toBe("completed, but `src/old.ts` was deleted in turn 4");
    expect(todoFlag(done("src/lexer.ts"), ledger)).toBeUndefined();
  });
});

describe("how an item's evidence stands", () => {
  it("names the latest run or change, or says it has none", () => {
    expect(evidenceState("npm test", ledger)).toBe("`npm test` passed in turn 5");
    expect(evidenceState("npm run lint", ledger)).toBe("`npm run lint` exited 2 in turn 7");
    expect(evidenceState("src/parser.ts", ledger)).toBe("`src/parser.ts` edited in turn 6");
    expect(evidenceState("README.md", ledger)).toBe("`README.md` not run or changed in this session");
    expect(evidenceState("cargo test", undefined)).toBe("`cargo test` not run in this session");
  });
});

describe("the list in the messages", () => {
  const list = (status: string) => ({ items: [{ content: "Fix it", status }] });

  it("is the latest accepted todo call's; a refused call changes nothing", () => {
    const messages = [
      user("go"),
      assistant([call("t1", "todo", list("pending"))]),
      results({ id: "t1", name: "todo", text: "Task list updated" }),
      assistant([call("t2", "todo", list("completed"))]),
      results({ id: "t2", name: "todo", text: "refused", isError: true }),
    ];
    expect(latestTodoList(messages)).toEqual([{ content: "Fix it", status: "pending" }]);
    expect(latestTodoList([user("go")])).toBeUndefined();
  });

  it("skips a call whose arguments are not a list of items", () => {
    const messages = [
      assistant([call("t1", "todo", list("pending"))]),
      results({ id: "t1", name: "todo", text: "ok" }),
      assistant([call("t2", "todo", list("finished"))]),
      results({ id: "t2", name: "todo", text: "ok" }),
    ];
    expect(latestTodoList(messages)).toEqual([{ content: "Fix it", status: "pending" }]);
  });
});

describe("the list's rules", () => {
  it("refuses more than one item in progress, naming them", () => {
    const items: TodoItem[] = [
      { content: "a", status: "in_progress" },
      { content: "b", status: "pending" },
      { content: "c", status: "in_progress" },
    ];
    expect(tooManyInProgress(items)).toContain('2 are: "a", "c"');
    expect(tooManyInProgress(items.slice(0, 2))).toBeUndefined();
  });

  it("counts completed of the items not cancelled", () => {
    expect(
      todoProgress([
        { content: "a", status: "completed" },
        { content: "b", status: "cancelled" },
        { content: "c", status: "pending" },
      ]),
    ).toEqual({ completed: 1, total: 2 });
  });
});
