import { appendFile, readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { openSession, SessionError } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import {
  assistant,
  header,
  jsonl,
  messageEntry,
  user,
  warningSink,
  writeSessionFile,
} from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

async function openRejection(): Promise<SessionError> {
  const error = await openSession(sandbox.path, { cwd: sandbox.dir }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(SessionError);
  return error as SessionError;
}

describe("a torn last line", () => {
  it("is ignored with a warning, the next append starts a new line, and nothing is lost on reopen", async () => {
    const good = [messageEntry(user("hello")), messageEntry(assistant("hi"))];
    await writeSessionFile(sandbox.path, [header(), ...good]);
    const torn = '{"type":"message","id":"deadbeef","ts":"2025-06-01T09:00:00.000Z","message":{"role":"us';
    await appendFile(sandbox.path, torn);

    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(sandbox.path);
    expect(warnings[0]).toContain("incomplete last line at line 4");
    expect(session.effectiveContext()).toEqual({ messages: [user("hello"), assistant("hi")] });

    const added = await session.appendMessage(user("again"));
    await session.close();
    const text = await readFile(sandbox.path, "utf8");
    expect(text).toContain(`${torn}\n${JSON.stringify(added)}\n`);

    const later = warningSink();
    const reopened = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning: later.onWarning });
    expect(reopened.effectiveContext()).toEqual({
      messages: [user("hello"), assistant("hi"), user("again")],
    });
    expect(later.warnings).toHaveLength(1);
    expect(later.warnings[0]).toMatch(
      new RegExp(`^${sandbox.path}: unparsable entry at line 4 \\(not valid JSON\\)`),
    );
    await reopened.close();
    expect(await readFile(sandbox.path, "utf8")).toBe(text);
  });

  it("keeps a complete entry that only lacks its newline, and still appends on a fresh line", async () => {
    const last = messageEntry(user("complete but unterminated"));
    await writeFile(sandbox.path, `${jsonl([header()])}${JSON.stringify(last)}`);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user("complete but unterminated")]);
    expect(warnings[0]).toContain("no newline");
    await session.appendMessage(user("next"));
    await session.close();
    const reopened = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(reopened.effectiveContext().messages).toEqual([user("complete but unterminated"), user("next")]);
    await reopened.close();
  });
});

describe("bad lines in the middle", () => {
  it("skips a corrupt line with a warning naming the file and line, and leaves the file untouched", async () => {
    await writeSessionFile(sandbox.path, [
      header(),
      messageEntry(user("one")),
      '{"type":"message","id":"x", garbage',
      messageEntry(user("two")),
    ]);
    const before = await readFile(sandbox.path, "utf8");
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user("one"), user("two")]);
    expect(warnings).toEqual([
      `${sandbox.path}: unparsable entry at line 3 (not valid JSON) is skipped and left in the file`,
    ]);
    await session.close();
    expect(await readFile(sandbox.path, "utf8")).toBe(before);
  });

  it("names a line that parses as JSON but is not a valid entry", async () => {
    const invalid = { type: "message", id: "m1", ts: "t", message: { role: "robot" } };
    await writeSessionFile(sandbox.path, [header(), messageEntry(user("one")), invalid, invalid]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user("one")]);
    expect(warnings).toEqual(
      [3, 4].map(
        (line) =>
          `${sandbox.path}: invalid entry at line ${line} (message entry whose message has no known role) is skipped and left in the file`,
      ),
    );
    await session.close();
  });

  it("names a message whose blocks lack the fields their type promises, and replays without it (fuzz find)", async () => {
    const call = { type: "tool-call", name: "bash", arguments: { command: "ls" } };
    const noId = { type: "message", id: "m1", ts: "t", message: { ...assistant("x"), content: [call] } };
    const badResult = {
      type: "message",
      id: "m2",
      ts: "t",
      message: {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c", toolName: "bash", content: "out", isError: false }],
      },
    };
    const textless = {
      type: "message",
      id: "m3",
      ts: "t",
      message: { role: "user", content: [{ type: "text" }] },
    };
    await writeSessionFile(sandbox.path, [header(), messageEntry(user("one")), noId, badResult, textless]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user("one")]);
    expect(warnings).toEqual([
      `${sandbox.path}: invalid entry at line 3 (message entry whose content item 1 is a tool-call block whose id is not text) is skipped and left in the file`,
      `${sandbox.path}: invalid entry at line 4 (message entry whose content item 1 is a tool-result block whose content is not a list) is skipped and left in the file`,
      `${sandbox.path}: invalid entry at line 5 (message entry whose content item 1 is a text block whose text is not text) is skipped and left in the file`,
    ]);
    await session.close();
  });

  it("ignores an entry of an unknown type with a warning, and keeps it in the file", async () => {
    const unknown = { type: "bookmark", id: "b1", ts: "2025-06-01T09:00:00.000Z", label: "here" };
    await writeSessionFile(sandbox.path, [
      header(),
      messageEntry(user("one")),
      unknown,
      messageEntry(user("two")),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toEqual([user("one"), user("two")]);
    expect(session.activeEntries().map((entry) => entry.type)).toEqual(["message", "message"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`${sandbox.path}: entry of unknown type "bookmark" at line 3`);
    await session.appendMessage(user("three"));
    await session.close();
    expect(await readFile(sandbox.path, "utf8")).toContain(JSON.stringify(unknown));
  });

  it("names the byte offset of a bad line when the scan stopped at a compaction before reaching line 1", async () => {
    const compaction = {
      type: "compaction",
      id: "c1",
      ts: "2025-06-01T09:00:00.000Z",
      summary: "S",
      trigger: "manual",
      model: "m",
      fellBack: false,
      turnsSummarised: 1,
      turnsKept: 0,
      tokensSummarised: 1,
      tokensKept: 0,
      summaryTokens: 1,
      sizeSources: { usage: 0, estimate: 1 },
    };
    const prefix = jsonl([header(), messageEntry(user("old")), compaction]);
    await writeFile(sandbox.path, `${prefix}not json\n${jsonl([messageEntry(user("new"))])}`);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "S" },
      messages: [user("new")],
    });
    expect(warnings).toEqual([
      `${sandbox.path}: unparsable entry at byte ${Buffer.byteLength(prefix)} (not valid JSON) is skipped and left in the file`,
    ]);
    await session.close();
  });
});

describe("the header", () => {
  it("refuses a header from a newer panto, naming the file and both versions, and writes nothing", async () => {
    await writeSessionFile(sandbox.path, [header({ version: 2 }), messageEntry(user("future"))]);
    const before = await readFile(sandbox.path, "utf8");
    const error = await openRejection();
    expect(error.message).toBe(
      `${sandbox.path} was written by a newer panto (session version 2); this panto reads version 1`,
    );
    expect(error.path).toBe(sandbox.path);
    expect(error.line).toBe(1);
    expect(await readFile(sandbox.path, "utf8")).toBe(before);
  });

  it("refuses a file whose first line is not JSON, naming the file and line 1", async () => {
    await writeFile(sandbox.path, "# my notes\nnot a session\n");
    const error = await openRejection();
    expect(error.message).toContain(`${sandbox.path}, line 1`);
    expect(error.line).toBe(1);
    expect(await readFile(sandbox.path, "utf8")).toBe("# my notes\nnot a session\n");
  });

  it("refuses a first line that is JSON but not a session header", async () => {
    await writeSessionFile(sandbox.path, [messageEntry(user("no header"))]);
    const error = await openRejection();
    expect(error.message).toContain('type is not "session"');
    expect(error.line).toBe(1);
  });

  it("releases the lock when the header is refused, so a later open is not blocked by it", async () => {
    await writeSessionFile(sandbox.path, [header({ version: 3 })]);
    await openRejection();
    await writeSessionFile(sandbox.path, [header()]);
    const session = await openSession(sandbox.path, { cwd: sandbox.dir });
    await session.close();
  });
});
