import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { effectiveNumbering } from "../../src/agent/compaction-numbering.js";
import { openSession, type Session } from "../../src/session/index.js";
import {
  assistant,
  header,
  jsonl,
  messageEntry,
  record,
  stamp,
  user,
} from "../session/session-test-helpers.js";
import { useSessionSandbox } from "../support/session-sandbox.js";

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

/** Turn N is the file's N-th user message (kept copies aside), rewound turns included. */
function turns(count: number, prefix: string) {
  return Array.from({ length: count }, (_, index) => [
    messageEntry(user(`${prefix} ${index + 1}`), `${prefix}${String(index + 1).padStart(5, "0")}`),
    messageEntry(assistant(`answer ${prefix} ${index + 1}`)),
  ]).flat();
}

async function opened(entries: unknown[]): Promise<Session> {
  const path = join(sandbox.dir, "s.jsonl");
  await writeFile(path, jsonl([header(), ...entries]));
  return openSession(path, { cwd: sandbox.dir, onWarning: () => {} });
}

describe("turn numbers a compaction records after a rewind", () => {
  it("count the rewound turns of a resumed file (no compaction in effect)", async () => {
    // Turns 1-3, a rewind back to before turn 2, then turn 4: the context holds turns 1 and 4.
    const session = await opened([...turns(3, "old"), rewindTo("old00002", "rw000001"), ...turns(1, "new")]);
    expect(await effectiveNumbering(session)).toEqual({ numbers: [1, 4], total: 4 });
    await session.close();
  });

  it("count the rewound turns after a compaction in effect", async () => {
    // Five turns summarised (total 5), turns 6-8, a rewind to before turn 7, then turn 9.
    const compaction = {
      type: "compaction",
      ...stamp("cmp00001"),
      ...record("SUMMARY", { turns: { through: 5, total: 5, kept: [] } }),
      keptMessages: 0,
    };
    const session = await opened([
      ...turns(5, "old"),
      compaction,
      ...turns(3, "mid"),
      rewindTo("mid00002", "rw000001"),
      ...turns(1, "new"),
    ]);
    expect(await effectiveNumbering(session)).toEqual({ numbers: [6, 9], total: 9 });
    await session.close();
  });

  it("count a rewind made in this process, before and after the next prompt", async () => {
    const session = await opened(turns(3, "old"));
    const second = session.activeEntries()[2];
    await session.appendRewind({
      firstEntryId: second?.id as string,
      scope: "conversation",
      turn: 2,
      droppedTurns: [2, 3],
      files: [],
      outcomes: [],
    });
    expect(await effectiveNumbering(session)).toEqual({ numbers: [1], total: 3 });
    await session.appendMessage(user("again"));
    expect(await effectiveNumbering(session)).toEqual({ numbers: [1, 4], total: 4 });
    await session.close();
  });
});
