import { open, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSession } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";
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
} from "./session-test-helpers.js";

const sandbox = useSessionSandbox();

function rewindTo(firstEntryId: string, id: string) {
  return {
    type: "rewind",
    ...stamp(id),
    firstEntryId,
    scope: "conversation",
    turn: 1,
    droppedTurns: [],
    files: [],
    outcomes: [],
  };
}

async function linesRead(path: string): Promise<number> {
  const file = await open(path, "r");
  try {
    return (await readActiveSuffix(path, file, (await file.stat()).size)).linesRead;
  } finally {
    await file.close();
  }
}

/** 400 turns of history, a compaction, then `after` turns. */
function history(after: number) {
  const before = Array.from({ length: 400 }, (_, index) => [
    messageEntry(user(`old ${index}`)),
    messageEntry(assistant(`old answer ${index}`)),
  ]).flat();
  const compaction = { type: "compaction", ...stamp("cmp00001"), ...record("SUMMARY"), keptMessages: 0 };
  const recent = Array.from({ length: after }, (_, index) => [
    messageEntry(user(`new ${index}`), `new${String(index).padStart(5, "0")}`),
    messageEntry(assistant(`new answer ${index}`)),
  ]).flat();
  return { before, compaction, recent };
}

describe("resuming a session with rewinds", () => {
  it("reads back only past the rewound range when the point is after the compaction in effect", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const { before, compaction, recent } = history(10);
    await writeFile(
      path,
      jsonl([header(), ...before, compaction, ...recent, rewindTo("new00005", "rw000001")]),
    );
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().compaction?.summary).toBe("SUMMARY");
    expect(session.effectiveContext().messages.filter((message) => message.role === "user")).toHaveLength(5);
    expect(warnings).toEqual([]);
    await session.close();
    // The compaction, ten turns and the rewind: nothing of the 400 turns before.
    expect(await linesRead(path)).toBe(1 + 20 + 1);
  });

  it("reads back past the compaction when the point is before it, to the context /uncompact would give", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const { before, compaction, recent } = history(3);
    const point = before[2 * 398]?.id as string;
    await writeFile(path, jsonl([header(), ...before, compaction, ...recent, rewindTo(point, "rw000001")]));
    const session = await openSession(path, { cwd: sandbox.dir, onWarning: () => {} });
    const prompts = session.effectiveContext().messages.filter((message) => message.role === "user");
    expect(session.effectiveContext().compaction).toBeUndefined();
    expect(prompts).toHaveLength(398);
    await session.close();
  });

  it("ignores, with a warning, a rewind whose point is not in the file", async () => {
    const path = join(sandbox.dir, "s.jsonl");
    const { recent } = history(3);
    await writeFile(path, jsonl([header(), ...recent, rewindTo("missing0", "rw000001")]));
    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: sandbox.dir, onWarning });
    expect(session.effectiveContext().messages).toHaveLength(6);
    expect(warnings).toEqual([
      `${path}: rewind entry rw000001 names entry missing0, which is not before it in the session; ignored`,
    ]);
    await session.close();
  });
});
