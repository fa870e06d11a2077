import { describe, expect, it } from "vitest";
import { recall } from "../../src/recall/index.js";
import type { Session } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { SessionWriter } from "./recall-fixture.js";

const sandbox = useSessionSandbox();

async function search(session: Session, query: string, extra: Record<string, unknown> = {}) {
  const answer = await recall(session, { query, ...extra });
  expect(answer.ok, answer.text).toBe(true);
  return answer.text;
}

describe("recall search", () => {
  it("finds a fact in a summarised turn, with its turn number, role and status, and reads the turn back whole", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("Use port 48213 for the fake billing server, never 8080.");
    await w.assistant("Noted.");
    await w.turn("now the parser");
    await w.compact("We set up a billing server and worked on the parser.");
    await w.turn("and the docs");

    const text = await search(session, "billing PORT");
    expect(text).toContain("1 hit for");
    expect(text).toMatch(/1\. turn 1 · \d{4}-\d\d-\d\d \d\d:\d\d UTC · user · summarised/);
    expect(text).toContain("Use port 48213 for the fake billing server");

    const read = await recall(session, { turn: 1 });
    expect(read.ok).toBe(true);
    expect(read.text).toContain("Turn 1 of this session (of 3)");
    expect(read.text).toContain("=== Turn 1 ·");
    expect(read.text).toContain("summarised: only the summary stands for it in the context");
    expect(read.text).toContain("[User]: Use port 48213 for the fake billing server, never 8080.");
    expect(read.text).toContain("[Assistant]: Noted.");
    expect(read.text).not.toContain("now the parser");
  });

  it("reads a range of turns back, each under its own heading, and stops at the last one asked for", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.turn("first turn text", "first answer");
    await w.turn("second turn text", "second answer");
    await w.turn("third turn text", "third answer");
    await w.turn("fourth turn text", "fourth answer");

    const read = await recall(session, { turn: 2, to: 3 });
    expect(read.ok).toBe(true);
    const headings = read.text.split("\n").filter((line) => line.startsWith("=== Turn "));
    expect(headings.map((line) => line.split(" · ")[0])).toEqual(["=== Turn 2", "=== Turn 3"]);
    expect(read.text).toContain("[User]: second turn text");
    expect(read.text).toContain("[Assistant]: third answer");
    expect(read.text).not.toContain("first turn text");
    expect(read.text).not.toContain("fourth turn text");

    const past = await recall(session, { turn: 4, to: 9 });
    expect(past.text).toContain("[User]: fourth turn text");
    expect(past.text.split("\n").filter((line) => line.startsWith("=== Turn "))).toHaveLength(1);
  });

  it("matches words in any order and case, phrases only as written, and says how many more hits there were", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.turn("The Quick brown fox");
    await w.turn("brown quick bears");
    await w.turn("nothing here");

    const words = await search(session, "quick BROWN", { limit: 2 });
    expect(words).toContain("4 hits, the best 2 shown");
    expect(words).toContain("2 more not shown");
    const phrase = await search(session, '"quick brown"');
    expect(phrase).toContain("2 hits for");
    expect(phrase).toContain("The Quick brown fox");
    expect(phrase).not.toContain("brown quick bears");
  });

  it("ranks hits holding more terms first, and the newest first among equals", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("alpha beta");
    await w.user("alpha");
    await w.user("alpha again");
    await w.user("beta");

    const text = await search(session, "alpha beta", { limit: 4 });
    const order = [...text.matchAll(/^\d+\. turn (\d+)/gm)].map((match) => Number(match[1]));
    expect(order).toEqual([1, 4, 3, 2]);
  });

  it("narrows to a kind: user, assistant, tool calls, tool results, or one tool", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("check widget");
    await w.bash("grep -r widget src", "src/widget.ts: export const widget = 1", 0);
    await w.tool("read", { path: "src/widget.ts" }, "export const widget = 1");
    await w.assistant("The widget is defined once.");

    const kinds = async (kind: string) =>
      [
        ...(await search(session, "widget", { kind, limit: 20 })).matchAll(
          / · (user|assistant|tool call \S+|tool result of \S+)/g,
        ),
      ].map((match) => match[1]);
    expect(await kinds("user")).toEqual(["user"]);
    expect(await kinds("assistant")).toEqual(["assistant"]);
    expect(await kinds("tool_call")).toEqual(["tool call read", "tool call bash"]);
    expect(await kinds("tool result")).toEqual(["tool result of read", "tool result of bash"]);
    expect(await kinds("bash")).toEqual(["tool result of bash", "tool call bash"]);
  });

  it("finds text holding quotes, backslashes and line breaks, as JSON escapes them in the file", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user('say "hello"\nthen C:\\temp\\out and\ttab');
    expect(await search(session, '"hello"')).toContain("1 hit");
    expect(await search(session, "C:\\temp\\out")).toContain("1 hit");
    expect(await search(session, '"hello then"')).toContain("No hits");
    expect(await search(session, '"hello\\" then"')).toMatch(/hit/);
  });

  it("marks failed turns, does not repeat kept copies, and skips its own calls and results", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.turn("zebra one");
    await w.user("zebra two");
    await session.markLastTurnFailed("server", "down");
    await w.turn("zebra three");
    await w.compact("S", 1);
    await w.tool("recall", { query: "zebra" }, "1. turn 1 · zebra one");

    const text = await search(session, "zebra");
    // Three prompts and two answers (the failed turn got none); the copy of turn 3 kept by the
    // compaction and the recall call and result are not hits.
    expect(text).toContain("5 hits for");
    expect(text.match(/turn 3 ·/g)).toHaveLength(2);
    expect(text).toMatch(/turn 2 · .* · user · failed/);
    expect(text).toMatch(/turn 3 · .* · user · in context/);
    expect(text).toMatch(/turn 1 · .* · user · summarised/);
  });
});

describe("recall stale marks", () => {
  it("marks a read of a file that was edited later, and not one read after the edit", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("look at the config");
    await w.tool("read", { path: "./src/config.ts" }, "export const timeout = 30;");
    await w.user("raise it");
    await w.tool(
      "edit",
      { path: "src/config.ts", old_string: "30", new_string: "60" },
      "Replaced 1 occurrence",
    );
    await w.tool("read", { path: "src/config.ts" }, "export const timeout = 60;");

    const text = await search(session, "timeout", { kind: "read" });
    const lines = text.split("\n").filter((line) => /^\d+\./.test(line));
    expect(lines[0]).toMatch(/turn 2 .* tool result of read src\/config\.ts · in context$/);
    expect(lines[1]).toMatch(/turn 1 .* stale: \.\/src\/config\.ts was edited in turn 2, after this read/);
  });

  it("marks a command run again later with another result, and not one whose later run agreed", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    await w.user("run the tests");
    await w.bash("npm test", "FAIL parser keeps comments", 1);
    await w.bash("npm run lint", "lint clean", 0);
    await w.user("again");
    await w.bash("npm test", "all 12 tests passed", 0);
    await w.bash("npm run lint", "lint clean", 0);

    const failing = await search(session, "FAIL parser");
    expect(failing).toMatch(
      /turn 1 .* tool result of bash npm test \(error\) · in context · stale: run again in turn 2 with another result \(exit 0\)/,
    );
    const lint = await search(session, "lint clean");
    expect(lint).not.toContain("stale");
  });
});

describe("recall read", () => {
  it("pages a long turn under the cap, each page continuing where the last stopped", async () => {
    const session = await sandbox.open(sandbox.path);
    const w = new SessionWriter(session);
    const long = Array.from({ length: 3000 }, (_, index) => `line ${index}`).join("\n");
    await w.user("dump");
    await w.tool("read", { path: "big.txt" }, long);
    let offset: number | undefined;
    let pages = 0;
    let all = "";
    do {
      const answer = await recall(session, { turn: 1, ...(offset === undefined ? {} : { offset }) });
      expect(answer.ok).toBe(true);
      const body = answer.text.replace(/^[^\n]*:\n/, "").replace(/\n\n\[More follows: .*\]$/s, "");
      all += body;
      const next = /"offset":(\d+)/.exec(answer.text);
      offset = next === null ? undefined : Number(next[1]);
      expect(answer.text.length).toBeLessThan(16_500);
      pages++;
    } while (offset !== undefined && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(all).toContain("line 0\n");
    expect(all).toContain("line 2999");
  });

  it("says which turns exist when asked for one that does not", async () => {
    const session = await sandbox.open(sandbox.path);
    await new SessionWriter(session).turn("only one");
    const answer = await recall(session, { turn: 5 });
    expect(answer).toEqual({ ok: false, text: "recall: no turn 5: the session has turns 1 to 1" });
    expect((await recall(session, {})).ok).toBe(false);
  });
});
