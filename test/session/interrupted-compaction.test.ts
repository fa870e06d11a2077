import { readFile, stat, truncate, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import { type CompactionEntry, type MessageEntry, replayEntries } from "../../src/session/index.js";
import { useSessionSandbox } from "../support/session-sandbox.js";
import {
  assistant,
  call,
  header,
  jsonl,
  messageEntry,
  record,
  results,
  stamp,
  user,
  warningSink,
  writeSessionFile,
} from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

function compactionEntry(summary: string, keptMessages?: number): CompactionEntry {
  return {
    type: "compaction",
    ...stamp(),
    ...record(summary),
    ...(keptMessages === undefined ? {} : { keptMessages }),
  };
}

function copyEntry(message: Message, compaction: CompactionEntry): MessageEntry {
  return { ...messageEntry(message), keptBy: compaction.id };
}

/**
 * Where to cut a write of whole lines: around every line end (the cuts that leave whole entries),
 * plus a spread of points inside lines; always "nothing landed" and "everything landed".
 */
function cutPoints(write: Buffer): number[] {
  const points = new Set<number>([0, write.length]);
  write.forEach((byte, index) => {
    if (byte === 0x0a) for (const point of [index - 1, index, index + 1]) points.add(point);
    if (index % 29 === 0) points.add(index);
  });
  return [...points].filter((point) => point >= 0 && point <= write.length).sort((a, b) => a - b);
}

const earlier: Message[] = [
  user("old question"),
  assistant("", [call("c1", "read")]),
  results(["c1", "read"]),
  assistant("old answer"),
];
const recent: Message[] = [user("recent question"), assistant("recent answer")];

describe("a compaction whose write was cut off", () => {
  it("is written with the count of its copies, and each copy names it", async () => {
    const session = await sandbox.open(sandbox.path, () => {});
    const { compaction, copies } = await session.appendCompaction(record("S"), recent);
    await session.close();
    const lines = (await readFile(sandbox.path, "utf8")).trim().split("\n").slice(1);
    expect(lines.map((line) => JSON.parse(line))).toEqual([compaction, ...copies]);
    expect(compaction.keptMessages).toBe(2);
    expect(copies.map((copy) => copy.keptBy)).toEqual([compaction.id, compaction.id]);
  });

  it("resumes exactly as before the compaction or exactly as after it, wherever the write was cut", async () => {
    const session = await sandbox.open(sandbox.path, () => {});
    for (const message of [...earlier, ...recent]) await session.appendMessage(message);
    const before = session.effectiveContext();
    const sizeBefore = (await stat(sandbox.path)).size;
    await session.appendCompaction(record("SUMMARY"), recent);
    const after = session.effectiveContext();
    await session.close();
    const full = await readFile(sandbox.path);
    const writeLength = full.length - sizeBefore;

    const cuts = cutPoints(full.subarray(sizeBefore));
    const seen = { before: 0, after: 0 };
    for (const landed of cuts) {
      await writeFile(sandbox.path, full);
      await truncate(sandbox.path, sizeBefore + landed);
      const expected = landed >= writeLength - 1 ? after : before;
      seen[expected === after ? "after" : "before"]++;
      const resumed = await sandbox.open(sandbox.path, () => {});
      expect(resumed.effectiveContext(), `cut after ${landed} of ${writeLength} bytes`).toEqual(expected);
      // What happens next is appended after the remains, and the next resume agrees.
      await resumed.appendMessage(user("next"));
      await resumed.close();
      const again = await sandbox.open(sandbox.path, () => {});
      expect(again.effectiveContext()).toEqual({
        ...expected,
        messages: [...expected.messages, user("next")],
      });
      await again.close();
    }
    expect(seen.after).toBe(2);
    expect(seen.before).toBe(cuts.length - 2);
  });

  it("is ignored with a warning naming the file when fewer copies follow than it announced", async () => {
    const compaction = compactionEntry("SUMMARY", 3);
    await writeSessionFile(sandbox.path, [
      header(),
      ...[...earlier, ...recent].map((message) => messageEntry(message)),
      compaction,
      copyEntry(recent[0] as Message, compaction),
      copyEntry(recent[1] as Message, compaction),
    ]);
    const { warnings, onWarning } = warningSink();
    const session = await sandbox.open(sandbox.path, onWarning);
    expect(session.effectiveContext()).toEqual({ messages: [...earlier, ...recent] });
    expect(warnings).toEqual([
      `${sandbox.path}: compaction entry ${compaction.id} announces 3 kept messages but only 2 follow it (its write was cut off, probably by a crash); it is ignored and the context is replayed as it was before it`,
    ]);
  });

  it("stays ignored after later runs append to the session, and their messages replay after the old state", async () => {
    const compaction = compactionEntry("SUMMARY", 2);
    const torn = JSON.stringify(copyEntry(recent[1] as Message, compaction)).slice(0, 40);
    await writeFile(
      sandbox.path,
      `${jsonl([header(), ...recent.map((message) => messageEntry(message)), compaction, copyEntry(recent[0] as Message, compaction)])}${torn}`,
    );
    const first = await sandbox.open(sandbox.path, () => {});
    await first.appendMessage(user("after the crash"));
    await first.appendMessage(assistant("answered"));
    await first.close();

    const { warnings, onWarning } = warningSink();
    const second = await sandbox.open(sandbox.path, onWarning);
    expect(second.effectiveContext()).toEqual({
      messages: [...recent, user("after the crash"), assistant("answered")],
    });
    expect(warnings.some((warning) => warning.includes("unparsable entry"))).toBe(true);
    expect(warnings.some((warning) => warning.includes(`compaction entry ${compaction.id}`))).toBe(true);
  });

  it("replays from the previous complete compaction, as the context was before the cut-off one", async () => {
    const previous = compactionEntry("S-PREVIOUS", 1);
    const cut = compactionEntry("S-CUT", 2);
    await writeSessionFile(sandbox.path, [
      header(),
      messageEntry(user("long ago")),
      previous,
      copyEntry(user("kept by the previous one"), previous),
      messageEntry(assistant("reply")),
      ...recent.map((message) => messageEntry(message)),
      cut,
      copyEntry(recent[0] as Message, cut),
    ]);
    const session = await sandbox.open(sandbox.path, () => {});
    const expected: EffectiveContext = {
      compaction: { type: "compaction", summary: "S-PREVIOUS" },
      messages: [user("kept by the previous one"), assistant("reply"), ...recent],
    };
    expect(session.effectiveContext()).toEqual(expected);
    expect(session.activeEntries()[0]).toEqual(previous);

    // A compaction made now replaces both, and the one after it resumes from it.
    await session.appendCompaction(record("S-NEW"), recent);
    await session.close();
    const reopened = await sandbox.open(sandbox.path, () => {});
    expect(reopened.effectiveContext()).toEqual({
      compaction: { type: "compaction", summary: "S-NEW" },
      messages: recent,
    });
  });

  it("fails the turn in flight back to the state before the cut-off compaction", async () => {
    const inFlight = messageEntry(user("turn in flight"));
    const cut = compactionEntry("S-CUT", 3);
    await writeSessionFile(sandbox.path, [
      header(),
      ...recent.map((message) => messageEntry(message)),
      inFlight,
      cut,
      copyEntry(recent[0] as Message, cut),
    ]);
    const session = await sandbox.open(sandbox.path, () => {});
    const failed = await session.markLastTurnFailed("context_overflow", "still too long");
    expect(failed?.firstEntryId).toBe(inFlight.id);
    expect(session.effectiveContext()).toEqual({ messages: recent });
    await session.close();
    expect((await sandbox.open(sandbox.path, () => {})).effectiveContext()).toEqual({ messages: recent });
  });

  it("counts as complete when it announces no copies, or predates the count", () => {
    const none = compactionEntry("S-NONE", 0);
    expect(replayEntries([messageEntry(user("a")), none]).context).toEqual({
      compaction: { type: "compaction", summary: "S-NONE" },
      messages: [],
    });
    const legacy = compactionEntry("S-LEGACY");
    expect(replayEntries([messageEntry(user("a")), legacy]).context).toEqual({
      compaction: { type: "compaction", summary: "S-LEGACY" },
      messages: [],
    });
  });

  it("skips a compaction entry whose count is not a count, as an invalid entry", async () => {
    const bad = { ...compactionEntry("S-BAD"), keptMessages: "2" };
    await writeSessionFile(sandbox.path, [header(), messageEntry(user("a")), bad, messageEntry(user("b"))]);
    const { warnings, onWarning } = warningSink();
    const session = await sandbox.open(sandbox.path, onWarning);
    expect(session.effectiveContext()).toEqual({ messages: [user("a"), user("b")] });
    expect(warnings[0]).toContain("keptMessages is not a count");
  });
});
