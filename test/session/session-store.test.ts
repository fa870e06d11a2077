import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSession, SessionError } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import { assistant, call, fileLines, record, results, user, warningSink } from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

describe("creating a session", () => {
  it("writes a version-1 header as line 1, with the file 0600 and new folders 0700", async () => {
    const path = join(sandbox.dir, "home", "sessions", "project", "s.jsonl");
    const session = await sandbox.open(path);
    const lines = await fileLines(path);
    expect(JSON.parse(lines[0] ?? "")).toEqual({
      type: "session",
      version: 1,
      id: session.header.id,
      created: session.header.created,
      cwd: sandbox.dir,
    });
    expect(lines.slice(1)).toEqual([""]);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(sandbox.dir, "home"))).mode & 0o777).toBe(0o700);
    expect((await stat(join(sandbox.dir, "home", "sessions", "project"))).mode & 0o777).toBe(0o700);
    expect(session.effectiveContext()).toEqual({ messages: [] });
  });

  it("treats an existing empty file as new and writes the header", async () => {
    const path = join(sandbox.dir, "empty.jsonl");
    await writeFile(path, "");
    const session = await sandbox.open(path);
    expect(session.header.version).toBe(1);
    expect(JSON.parse((await fileLines(path))[0] ?? "").type).toBe("session");
  });
});

describe("appending and reopening", () => {
  it("round-trips messages through the file, one JSON line per entry", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const first = await sandbox.open(path);
    const messages = [user("list files"), assistant("", [call("c1")]), results("c1"), assistant("two files")];
    const entries = [];
    for (const message of messages) entries.push(await first.appendMessage(message));
    expect(first.effectiveContext()).toEqual({ messages });
    await first.close();

    const lines = await fileLines(path);
    expect(lines).toHaveLength(6);
    expect(lines.slice(1, 5).map((line) => JSON.parse(line))).toEqual(entries);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(4);
    expect(entries.every((entry) => /^[0-9a-f]{8}$/.test(entry.id))).toBe(true);

    const again = await sandbox.open(path);
    expect(again.effectiveContext()).toEqual({ messages });
    expect(again.activeEntries()).toEqual(entries);
    expect(again.header).toEqual(first.header);
  });

  it("keeps appends in call order when they are not awaited one by one", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    const texts = Array.from({ length: 20 }, (_, index) => `message ${index}`);
    await Promise.all(texts.map((text) => session.appendMessage(user(text))));
    await session.close();
    const written = (await fileLines(path))
      .slice(1, -1)
      .map((line) => JSON.parse(line).message.content[0].text);
    expect(written).toEqual(texts);
  });

  it("stores a copy, so changing the message afterwards changes nothing", async () => {
    const session = await sandbox.open(join(sandbox.dir, "s.jsonl"));
    const message = user("original");
    await session.appendMessage(message);
    message.content[0] = { type: "text", text: "changed" };
    const context = session.effectiveContext();
    expect(context.messages[0]).toEqual(user("original"));
    context.messages.pop();
    expect(session.effectiveContext().messages).toHaveLength(1);
  });

  it("rejects appends after close, and close is idempotent", async () => {
    const session = await openSession(join(sandbox.dir, "s.jsonl"), { cwd: sandbox.dir });
    await session.close();
    await session.close();
    await expect(session.appendMessage(user("late"))).rejects.toBeInstanceOf(SessionError);
  });
});

describe("compaction", () => {
  it("replays only the latest of three compactions and the messages after it", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("turn 1"));
    await session.appendMessage(assistant("answer 1"));
    await session.appendCompaction(record("S1"), [user("turn 1"), assistant("answer 1")]);
    await session.appendMessage(user("turn 2"));
    await session.appendCompaction(record("S2"), []);
    await session.appendMessage(user("turn 3"));
    await session.appendMessage(assistant("answer 3"));
    const third = await session.appendCompaction(record("S3"), [user("turn 3"), assistant("answer 3")]);
    await session.appendMessage(user("turn 4"));

    const expected = {
      compaction: { type: "compaction", summary: "S3" },
      messages: [user("turn 3"), assistant("answer 3"), user("turn 4")],
    };
    expect(session.effectiveContext()).toEqual(expected);
    expect(session.activeEntries().map((entry) => entry.id)[0]).toBe(third.compaction.id);
    await session.close();

    const reopened = await sandbox.open(path);
    expect(reopened.effectiveContext()).toEqual(expected);
    expect(reopened.activeEntries()).toHaveLength(4);
    // Nothing was rewritten: every compaction and every original message is still in the file.
    const types = (await fileLines(path)).slice(1, -1).map((line) => JSON.parse(line).type);
    expect(types.filter((type) => type === "compaction")).toHaveLength(3);
    expect(types).toHaveLength(13);
  });

  it("returns the compaction entry (record fields included) and fresh copies of the kept messages", async () => {
    const session = await sandbox.open(join(sandbox.dir, "s.jsonl"));
    const original = await session.appendMessage(user("keep me"));
    const { compaction, copies } = await session.appendCompaction(
      record("S", { instructions: "keep bug #3" }),
      [user("keep me")],
    );
    expect(compaction).toMatchObject({
      type: "compaction",
      summary: "S",
      instructions: "keep bug #3",
      trigger: "manual",
    });
    expect(copies).toHaveLength(1);
    expect(copies[0]?.id).not.toBe(original.id);
    expect(copies[0]?.message).toEqual(user("keep me"));
    expect(session.activeEntries()).toEqual([compaction, ...copies]);
  });
});

describe("failed turns", () => {
  it("puts the effective context back to before the failed turn, also after reopening", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("good"));
    await session.appendMessage(assistant("fine"));
    const before = session.effectiveContext();
    await session.appendMessage(user("huge paste"));
    await session.appendMessage(assistant("", [call("c9")]));
    const failed = await session.markLastTurnFailed("context_overflow", "prompt is too long");
    expect(failed).toMatchObject({
      type: "turn-failed",
      code: "context_overflow",
      error: "prompt is too long",
    });
    expect(session.effectiveContext()).toEqual(before);
    await session.close();

    const reopened = await sandbox.open(path);
    expect(reopened.effectiveContext()).toEqual(before);
    // The failed turn's text is still in the file.
    expect(await readFile(path, "utf8")).toContain("huge paste");
    await reopened.appendMessage(user("smaller question"));
    expect(reopened.effectiveContext().messages).toEqual([...before.messages, user("smaller question")]);
  });

  it("drops a failed turn whose copy was kept by the compaction in between", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    await session.appendMessage(user("old turn"));
    await session.appendMessage(assistant("old answer"));
    await session.appendMessage(user("recent turn"));
    await session.appendMessage(assistant("recent answer"));
    await session.appendMessage(user("turn in flight"));
    // Overflow: compaction keeps the recent turn and the turn in flight, then the retry fails too.
    await session.appendCompaction(record("S", { trigger: "overflow" }), [
      user("recent turn"),
      assistant("recent answer"),
      user("turn in flight"),
    ]);
    const failed = await session.markLastTurnFailed("context_overflow", "still too long");
    const copyOfInFlight = session.activeEntries()[3];
    expect(failed?.firstEntryId).toBe(copyOfInFlight?.id);
    const expected = {
      compaction: { type: "compaction", summary: "S" },
      messages: [user("recent turn"), assistant("recent answer")],
    };
    expect(session.effectiveContext()).toEqual(expected);
    await session.close();
    expect((await sandbox.open(path)).effectiveContext()).toEqual(expected);
  });

  it("is a no-op when the effective context has no user message", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const session = await sandbox.open(path);
    expect(await session.markLastTurnFailed("other", "nothing to fail")).toBeUndefined();
    await session.appendCompaction(record("S"), []);
    expect(await session.markLastTurnFailed("other", "nothing to fail")).toBeUndefined();
    await session.close();
    expect((await fileLines(path)).filter((line) => line.includes("turn-failed"))).toEqual([]);
  });

  it("fails turns one after another, each back to the last good state", async () => {
    const { warnings, onWarning } = warningSink();
    const session = await sandbox.open(join(sandbox.dir, "s.jsonl"), onWarning);
    await session.appendMessage(user("good"));
    await session.appendMessage(user("bad 1"));
    await session.markLastTurnFailed("server", "500");
    await session.appendMessage(user("bad 2"));
    await session.markLastTurnFailed("rate_limit", "429");
    expect(session.effectiveContext()).toEqual({ messages: [user("good")] });
    expect(warnings).toEqual([]);
  });
});
