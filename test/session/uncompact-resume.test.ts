import { open } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";
import { assistant, makeTempDir, record, removeTempDir, user } from "./session-test-helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe("resuming after /uncompact", () => {
  it("reads backward only to the compaction before the undone one, and skips the undone one's kept copies", async () => {
    const path = join(dir, "undo.jsonl");
    const session = await openSession(path, { cwd: dir });
    for (let index = 0; index < 50; index++) {
      await session.appendMessage(user(`old ${index}`));
      await session.appendMessage(assistant(`old answer ${index}`));
    }
    const first = await session.appendCompaction(record("FIRST"), [
      user("old 49"),
      assistant("old answer 49"),
    ]);
    await session.appendMessage(user("middle"));
    await session.appendMessage(assistant("middle answer"));
    const second = await session.appendCompaction(record("SECOND"), [
      user("middle"),
      assistant("middle answer"),
    ]);
    await session.appendMessage(user("late"));
    await session.appendMessage(assistant("late answer"));
    await session.appendUncompact(second.compaction.id);
    const live = session.effectiveContext();
    await session.close();

    const file = await open(path, "r");
    try {
      const { size } = await file.stat();
      const read = await readActiveSuffix(path, file, size);
      expect(read.entries[0]?.id).toBe(first.compaction.id);
      // 2 copies + 2 + compaction + 2 copies + 2 + uncompact, plus the compaction itself: not the 100 old lines.
      expect(read.linesRead).toBe(11);
    } finally {
      await file.close();
    }
    const resumed = await openSession(path, { cwd: dir });
    try {
      expect(resumed.effectiveContext()).toEqual(live);
      expect(live.compaction?.summary).toBe("FIRST");
      expect(
        live.messages.map((message) => message.content[0]?.type === "text" && message.content[0].text),
      ).toEqual(["old 49", "old answer 49", "middle", "middle answer", "late", "late answer"]);
      expect(resumed.activeCompaction()?.id).toBe(first.compaction.id);
    } finally {
      await resumed.close();
    }
  });
});

describe("a failed turn after an overflow compaction that is then undone", () => {
  it("stays out of the context: the original turn before the compaction is dropped, not only its copy", async () => {
    const path = join(dir, "failed-after-overflow.jsonl");
    const session = await openSession(path, { cwd: dir });
    try {
      await session.appendMessage(user("one"));
      await session.appendMessage(assistant("answer one"));
      await session.appendMessage(user("too big"));
      const { compaction } = await session.appendCompaction(record("S", { trigger: "overflow" }), [
        user("too big"),
      ]);
      await session.markLastTurnFailed("context_overflow", "still too big");
      expect(session.effectiveContext()).toEqual({
        compaction: { type: "compaction", summary: "S" },
        messages: [],
      });
      await session.appendUncompact(compaction.id);
      expect(session.effectiveContext()).toEqual({ messages: [user("one"), assistant("answer one")] });
    } finally {
      await session.close();
    }
  });
});
