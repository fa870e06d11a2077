import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MessageEntry } from "../../src/session/index.js";
import { openSession, replayEntries } from "../../src/session/index.js";
import {
  assistant,
  header,
  jsonl,
  makeTempDir,
  messageEntry,
  record,
  removeTempDir,
  stamp,
  user,
  warningSink,
  writeSessionFile,
} from "./session-test-helpers.js";

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await makeTempDir();
  path = join(dir, "s.jsonl");
});

afterEach(async () => {
  await removeTempDir(dir);
});

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
    await writeFile(path, text, { mode: 0o600 });
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: dir, onWarning });
    expect(warnings).toEqual([]);
    expect(session.header.id).toBe("11111111-2222-3333-4444-555555555555");
    expect(session.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "the summary" },
      messages: [user("kept question"), assistant("new answer")],
    });
    const added = await session.appendMessage(user("next"));
    await session.close();
    // The mark and every old byte are still there; only a line was added.
    expect(await readFile(path, "utf8")).toBe(`${text}${JSON.stringify(added)}\n`);
  });

  it("with only a header opens too", async () => {
    await writeFile(path, `${BOM}${JSON.stringify(header())}\n`, { mode: 0o600 });
    const session = await openSession(path, { cwd: dir });
    expect(session.effectiveContext()).toEqual({ messages: [] });
    await session.close();
  });
});

describe("kept copies naming an unknown compaction", () => {
  it("are replayed as ordinary messages, with a warning naming the file and each line", async () => {
    await writeSessionFile(path, [
      header(),
      messageEntry(user("question")),
      keptCopy(assistant("answer"), "nosuchid"),
      messageEntry(user("follow-up")),
      keptCopy(assistant("second answer"), "nosuchid"),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: dir, onWarning });
    expect(warnings).toEqual(
      [3, 5].map(
        (line) =>
          `${path}: kept copy at line ${line} names compaction nosuchid, which is not in the active part of the session (after the latest compaction); it is replayed as an ordinary message`,
      ),
    );
    expect(session.effectiveContext()).toEqual({
      messages: [user("question"), assistant("answer"), user("follow-up"), assistant("second answer")],
    });
    await session.close();
  });

  it("after a real compaction, a copy naming another id is kept and reported while the real copies are not", async () => {
    const compaction = { type: "compaction", ...stamp("c0000002"), ...record("sum"), keptMessages: 1 };
    await writeSessionFile(path, [
      header(),
      messageEntry(user("before")),
      compaction,
      keptCopy(user("kept"), "c0000002"),
      keptCopy(assistant("stray"), "c9999999"),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: dir, onWarning });
    expect(warnings).toHaveLength(1);
    // Reading backwards stopped at the compaction, before line numbers were known: a byte offset.
    const strayOffset = (await readFile(path, "utf8")).lastIndexOf('{"type":"message"');
    expect(warnings[0]).toContain(`${path}: kept copy at byte ${strayOffset} names compaction c9999999,`);
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
