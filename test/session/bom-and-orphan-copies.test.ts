import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { MessageEntry } from "../../src/session/index.js";
import { openSession, replayEntries } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import {
  assistant,
  header,
  jsonl,
  messageEntry,
  record,
  stamp,
  user,
  warningSink,
  writeSessionFile,
} from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

const BOM = "\uFEFF";

function keptCopy(message: MessageEntry["message"], keptBy: string, id?: string): MessageEntry {
  return { ...messageEntry(message, id), keptBy };
}

describe("a session file starting with a UTF-8 byte order mark", () => {
  it("opens, resumes from its latest compaction reading backwards, and is not rewritten", async () => {
    const compaction = {
      type: "compaction",
      ...stamp("c0000001"),
      ...record("the summary"),
      keptMessages: 1,
    };
    const text =
      BOM +
      jsonl([
        header(),
        messageEntry(user("old question")),
        messageEntry(assistant("old answer")),
        compaction,
        keptCopy(user("kept question"), "c0000001"),
        messageEntry(assistant("new answer")),
      ]);
    await writeFile(sandbox.path, text, { mode: 0o600 });
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(warnings).toEqual([]);
    expect(session.header.id).toBe("11111111-2222-3333-4444-555555555555");
    expect(session.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "the summary" },
      messages: [user("kept question"), assistant("new answer")],
    });
    const added = await session.appendMessage(user("next"));
    await session.close();
    // The mark and every old byte are still there; only a line was added.
    expect(await readFile(sandbox.path, "utf8")).toBe(`${text}${JSON.stringify(added)}\n`);
  });

  it("with only a header opens too", async () => {
    await writeFile(sandbox.path, `${BOM}${JSON.stringify(header())}\n`, { mode: 0o600 });
    const session = await openSession(sandbox.path, { cwd: sandbox.dir });
    expect(session.effectiveContext()).toEqual({ messages: [] });
    await session.close();
  });
});

describe("kept copies naming an unknown compaction", () => {
  it("are replayed as ordinary messages, with a warning naming the file and each line", async () => {
    await writeSessionFile(sandbox.path, [
      header(),
      messageEntry(user("question")),
      keptCopy(assistant("answer"), "nosuchid"),
      messageEntry(user("follow-up")),
      keptCopy(assistant("second answer"), "nosuchid"),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(warnings).toEqual(
      [3, 5].map(
        (line) =>
          `${sandbox.path}: kept copy at line ${line} names compaction nosuchid, which is not in the active part of the session (after the latest compaction); it is replayed as an ordinary message`,
      ),
    );
    expect(session.effectiveContext()).toEqual({
      messages: [user("question"), assistant("answer"), user("follow-up"), assistant("second answer")],
    });
    await session.close();
  });

  it("after a real compaction, a copy naming another id is kept and reported while the real copies are not", async () => {
    const compaction = { type: "compaction", ...stamp("c0000002"), ...record("sum"), keptMessages: 1 };
    await writeSessionFile(sandbox.path, [
      header(),
      messageEntry(user("before")),
      compaction,
      keptCopy(user("kept"), "c0000002"),
      keptCopy(assistant("stray"), "c9999999"),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(sandbox.path, { cwd: sandbox.dir, onWarning });
    expect(warnings).toHaveLength(1);
    // Reading backwards stopped at the compaction, before line numbers were known: a byte offset.
    const strayOffset = (await readFile(sandbox.path, "utf8")).lastIndexOf('{"type":"message"');
    expect(warnings[0]).toContain(
      `${sandbox.path}: kept copy at byte ${strayOffset} names compaction c9999999,`,
    );
    expect(session.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "sum" },
      messages: [user("kept"), assistant("stray")],
    });
    await session.close();
  });

  it("replay without a file keeps them too", () => {
    const result = replayEntries([messageEntry(user("q")), keptCopy(assistant("a"), "nosuchid")]);
    expect(result.context).toEqual({ messages: [user("q"), assistant("a")] });
  });
});
