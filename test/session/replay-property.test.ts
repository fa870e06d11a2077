import { open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import { openSession, replayEntries, type SessionEntry } from "../../src/session/index.js";
import { readActiveSuffix } from "../../src/session/read-active-suffix.js";
import { repairToolPairing } from "../../src/session/repair-tool-pairing.js";
import {
  assistant,
  call,
  header,
  jsonl,
  makeTempDir,
  record,
  removeTempDir,
  results,
  user,
} from "./session-test-helpers.js";

type Op =
  | { kind: "turn"; text: string; calls: number }
  /** `landed`: how many of the kept copies reached the file (a crash cut the write), when fewer than all. */
  | { kind: "compaction"; keepTurns: number; landed?: number }
  | { kind: "fail"; target: number }
  | { kind: "unknown" };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("turn" as const), text: fc.string(), calls: fc.nat(2) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("compaction" as const), keepTurns: fc.nat(3) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("compaction" as const),
      keepTurns: fc.integer({ min: 1, max: 3 }),
      landed: fc.nat(6),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("fail" as const), target: fc.integer({ min: -1, max: 400 }) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "unknown" as const }) },
);

/** Builds the entries (and unknown-type lines) that a sequence of operations would have written. */
function buildLines(ops: readonly Op[], danglingCall: boolean): unknown[] {
  const lines: unknown[] = [header()];
  const ids: string[] = [];
  const turns: Message[][] = [];
  let next = 0;
  const id = () => {
    const value = (next++).toString(16).padStart(8, "0");
    ids.push(value);
    return value;
  };
  const ts = "2025-06-01T09:00:00.000Z";
  const push = (message: Message, keptBy?: string) =>
    lines.push({ type: "message", id: id(), ts, message, ...(keptBy === undefined ? {} : { keptBy }) });
  for (const op of ops) {
    if (op.kind === "turn") {
      const callIds = Array.from({ length: op.calls }, (_, index) => `call_${next}_${index}`);
      const turn: Message[] = [user(op.text)];
      if (callIds.length > 0)
        turn.push(
          assistant(
            "",
            callIds.map((callId) => call(callId)),
          ),
          results(...callIds),
        );
      turn.push(assistant(`re: ${op.text}`));
      turns.push(turn);
      for (const message of turn) push(message);
    } else if (op.kind === "compaction") {
      const kept = turns.slice(turns.length - op.keepTurns).flat();
      const landed = Math.min(op.landed ?? kept.length, kept.length);
      // A cut before the compaction line ended leaves no entry at all.
      if (landed === kept.length && op.landed !== undefined) continue;
      const compactionId = id();
      lines.push({
        type: "compaction",
        id: compactionId,
        ts,
        ...record(`summary ${next}`),
        keptMessages: kept.length,
      });
      for (const message of kept.slice(0, landed)) push(message, compactionId);
    } else if (op.kind === "fail") {
      const firstEntryId =
        op.target === -1 || ids.length === 0 ? "nowhere0" : (ids[op.target % ids.length] as string);
      lines.push({
        type: "turn-failed",
        id: id(),
        ts,
        firstEntryId,
        code: "context_overflow",
        error: "too long",
      });
    } else {
      lines.push({ type: "note-from-the-future", id: id(), ts, text: "?" });
    }
  }
  if (danglingCall) {
    push(user("and then the process died"));
    push(assistant("", [call("call_dangling")]));
  }
  return lines;
}

/**
 * The reference: read every line forward, keep everything since the last compaction whose copies
 * all follow it somewhere, drop failed ranges and the copies of cut-off compactions.
 */
function naiveForwardReplay(text: string): { context: EffectiveContext; active: SessionEntry[] } {
  const entries = text
    .split("\n")
    .slice(1)
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as SessionEntry)
    .filter((entry) => ["message", "compaction", "turn-failed"].includes(entry.type));
  const complete = (compaction: SessionEntry, position: number) =>
    compaction.type === "compaction" &&
    entries.slice(position).filter((entry) => entry.type === "message" && entry.keptBy === compaction.id)
      .length >= (compaction.keptMessages ?? 0);
  let active: SessionEntry[] = [];
  entries.forEach((entry, position) => {
    active = complete(entry, position) ? [entry] : [...active, entry];
  });
  const first = active[0];
  const activeId = first?.type === "compaction" ? first.id : undefined;
  const failedAt = (position: number) =>
    active.some((failure, end) => {
      if (failure.type !== "turn-failed" || end < position) return false;
      const start = active.slice(0, end).findIndex((entry) => entry.id === failure.firstEntryId);
      return start !== -1 && start <= position;
    });
  const messages = active.flatMap((entry, position) =>
    entry.type === "message" &&
    !failedAt(position) &&
    (entry.keptBy === undefined || entry.keptBy === activeId)
      ? [entry.message]
      : [],
  );
  const repaired = repairToolPairing(messages).messages;
  const context: EffectiveContext =
    first?.type === "compaction"
      ? { compaction: { type: "compaction", summary: first.summary }, messages: repaired }
      : { messages: repaired };
  return { context, active };
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe("replay (property)", () => {
  it("resuming backward from the file equals a naive forward replay, for any mix of turns, compactions (some cut off) and failures", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArbitrary, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 300 }),
        async (ops, dangling, chunkBytes) => {
          const path = join(dir, `p${run++}.jsonl`);
          await writeFile(path, jsonl(buildLines(ops, dangling)));
          const text = await readFile(path, "utf8");
          const reference = naiveForwardReplay(text);

          const session = await openSession(path, { cwd: dir, onWarning: () => {} });
          expect(session.effectiveContext()).toEqual(reference.context);
          expect(session.activeEntries()).toEqual(reference.active);
          await session.close();

          // The same with tiny read chunks, so entries straddle chunk boundaries.
          const file = await open(path, "r");
          const read = await readActiveSuffix(path, file, (await file.stat()).size, chunkBytes);
          await file.close();
          expect(read.entries).toEqual(reference.active);
          expect(replayEntries(read.entries).context).toEqual(reference.context);
        },
      ),
      {
        numRuns: 150,
        examples: [
          // A failed turn naming a copy of a compaction that was cut off removes only from that copy on.
          [
            [
              { kind: "turn", text: "", calls: 1 },
              { kind: "compaction", keepTurns: 1, landed: 2 },
              { kind: "fail", target: 187 },
            ],
            false,
            1,
          ],
        ],
      },
    );
  });

  it("repairing tool pairing leaves every call answered once and no result without its call", () => {
    const messageArbitrary: fc.Arbitrary<Message> = fc.oneof(
      fc.string().map((text) => user(text)),
      fc.array(fc.constantFrom("a", "b", "c"), { maxLength: 3 }).map((ids) =>
        assistant(
          "",
          [...new Set(ids)].map((id) => call(id)),
        ),
      ),
      fc
        .array(fc.constantFrom("a", "b", "c", "z"), { minLength: 1, maxLength: 3 })
        .map((ids) => results(...ids)),
    );
    fc.assert(
      fc.property(fc.array(messageArbitrary, { maxLength: 30 }), (messages) => {
        const repaired = repairToolPairing(messages).messages;
        repaired.forEach((message, index) => {
          if (message.role !== "assistant") return;
          const callIds = message.content.flatMap((block) => (block.type === "tool-call" ? [block.id] : []));
          const answers: string[] = [];
          for (let next = index + 1; repaired[next]?.role === "tool"; next++) {
            const tool = repaired[next] as Extract<Message, { role: "tool" }>;
            answers.push(...tool.content.map((result) => result.toolCallId));
          }
          expect(answers.sort()).toEqual(callIds.sort());
        });
        repaired.forEach((message, index) => {
          if (message.role !== "tool") return;
          expect(message.content.length).toBeGreaterThan(0);
          expect(["assistant", "tool"]).toContain(repaired[index - 1]?.role);
        });
        // User and assistant messages are never added, removed or reordered.
        const spine = (list: readonly Message[]) => list.filter((message) => message.role !== "tool");
        expect(spine(repaired)).toEqual(spine(messages));
      }),
      { numRuns: 300 },
    );
  });
});
