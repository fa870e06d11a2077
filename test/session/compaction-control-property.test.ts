import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editSummary } from "../../src/agent/compaction-controls.js";
import { groupTurns } from "../../src/compaction/index.js";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import {
  composeCompactionSummary,
  openSession,
  PINNED_NOTES_HEADING,
  type Session,
} from "../../src/session/index.js";
import {
  buildConversation,
  type ConversationSpec,
  conversationSpec,
} from "../compaction/conversation-arbitrary.js";
import { makeTempDir, record, removeTempDir } from "./session-test-helpers.js";

/**
 * Generated sessions (tool loops, parallel calls, several compactions) driven through a real
 * session file, checked against a model that knows what each operation means: a compaction
 * replaces the context by its summary and the kept turns; an undo brings back the context from
 * before it followed by every message written after it; an edit changes the summary only.
 */
type Op =
  | { kind: "turns"; count: number }
  | { kind: "compact"; keepTurns: number }
  | { kind: "uncompact" }
  | { kind: "edit" }
  | { kind: "pin" }
  | { kind: "unpin"; index: number }
  | { kind: "resume" };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("turns" as const), count: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("compact" as const), keepTurns: fc.nat(2) }) },
  { weight: 3, arbitrary: fc.constant({ kind: "uncompact" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "edit" as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: "pin" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("unpin" as const), index: fc.nat(4) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "resume" as const }) },
);

interface State {
  summary?: string;
  messages: Message[];
}

/** One compaction in effect, with the state before it and every message appended since it. */
interface Frame {
  before: State;
  appendedSince: Message[];
}

/** What the effective context must be: the model's state, the pinned notes in its block. */
function expectedContext(state: State, pins: readonly string[]): EffectiveContext {
  if (state.summary === undefined && pins.length === 0) return { messages: state.messages };
  const summary = composeCompactionSummary({ summary: state.summary ?? "", pins });
  return { compaction: { type: "compaction", summary }, messages: state.messages };
}

let dir: string;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await removeTempDir(dir);
});

let fileNumber = 0;

async function drive(
  turns: Message[][],
  ops: readonly Op[],
  check: (session: Session, state: State, pins: readonly string[], frames: readonly Frame[]) => void,
): Promise<void> {
  const path = join(dir, `s${fileNumber++}.jsonl`);
  let session = await openSession(path, { cwd: dir, onWarning: () => {} });
  let state: State = { messages: [] };
  const frames: Frame[] = [];
  const pins: string[] = [];
  let nextTurn = 0;
  let summaries = 0;
  try {
    for (const op of ops) {
      switch (op.kind) {
        case "turns":
          for (const turn of turns.slice(nextTurn, nextTurn + op.count)) {
            for (const message of turn) {
              await session.appendMessage(message);
              state.messages.push(message);
              for (const frame of frames) frame.appendedSince.push(message);
            }
          }
          nextTurn = Math.min(turns.length, nextTurn + op.count);
          break;
        case "compact": {
          const grouped = groupTurns(state.messages);
          const kept = grouped.slice(grouped.length - op.keepTurns).flatMap((turn) => turn.messages);
          const summary = `SUMMARY-${++summaries}`;
          await session.appendCompaction(record(summary), op.keepTurns === 0 ? [] : kept);
          frames.push({ before: structuredClone(state), appendedSince: [] });
          state = { summary, messages: op.keepTurns === 0 ? [] : [...kept] };
          break;
        }
        case "uncompact": {
          const active = session.activeCompaction();
          const frame = frames.pop();
          expect(active === undefined, "a compaction is in effect exactly when the model has one").toBe(
            frame === undefined,
          );
          if (active === undefined || frame === undefined) break;
          await session.appendUncompact(active.id);
          state = { ...frame.before, messages: [...frame.before.messages, ...frame.appendedSince] };
          if (frame.before.summary === undefined) delete state.summary;
          break;
        }
        case "edit": {
          const summary = `EDITED-${++summaries}`;
          const outcome = await editSummary({ session, onEvent: () => {} }, summary);
          if (state.summary === undefined) {
            expect(outcome.type).toBe("no-summary");
            break;
          }
          expect(outcome.type).toBe("edited");
          frames.push({ before: structuredClone(state), appendedSince: [] });
          state = { summary, messages: state.messages };
          break;
        }
        case "pin": {
          const text = `pinned note ${pins.length + 1}: keep \`src/x-${summaries}.ts\` as it is`;
          await session.appendPin(text);
          pins.push(text);
          break;
        }
        case "unpin": {
          const pin = session.pins()[op.index];
          if (pin === undefined) break;
          await session.appendUnpin(pin.id);
          pins.splice(op.index, 1);
          break;
        }
        case "resume":
          await session.close();
          session = await openSession(path, { cwd: dir, onWarning: () => {} });
          break;
      }
      check(session, state, pins, frames);
    }
    await session.close();
    session = await openSession(path, { cwd: dir, onWarning: () => {} });
    check(session, state, pins, frames);
  } finally {
    await session.close();
  }
}

const sessionArbitrary = fc.record({
  conversation: conversationSpec,
  ops: fc.array(opArbitrary, { minLength: 1, maxLength: 16 }),
});

function turnsOf(spec: ConversationSpec): Message[][] {
  return groupTurns(buildConversation(spec).messages).map((turn) => turn.messages);
}

describe("compaction control over generated sessions", () => {
  it("replays exactly the context the operations mean, live and after resume (undo, chained undo, edits, pins)", async () => {
    await fc.assert(
      fc.asyncProperty(sessionArbitrary, async ({ conversation, ops }) => {
        await drive(turnsOf(conversation), ops, (session, state, pins) => {
          expect(session.effectiveContext()).toEqual(expectedContext(state, pins));
        });
      }),
      { numRuns: 60 },
    );
  });

  it("compact then uncompact gives back the context from before, deep-equal", async () => {
    await fc.assert(
      fc.asyncProperty(conversationSpec, fc.nat(3), async (spec, keepTurns) => {
        const turns = turnsOf(spec);
        const ops: Op[] = [{ kind: "turns", count: turns.length }];
        let before: EffectiveContext | undefined;
        await drive(turns, ops, (session) => {
          before = session.effectiveContext();
        });
        const path = join(dir, `s${fileNumber - 1}.jsonl`);
        const session = await openSession(path, { cwd: dir, onWarning: () => {} });
        try {
          const grouped = groupTurns(session.effectiveContext().messages);
          const kept = grouped
            .slice(Math.max(0, grouped.length - keepTurns))
            .flatMap((turn) => turn.messages);
          const { compaction } = await session.appendCompaction(record("S"), keepTurns === 0 ? [] : kept);
          await session.appendUncompact(compaction.id);
          expect(session.effectiveContext()).toEqual(before);
        } finally {
          await session.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it("uncompact after later turns keeps those turns once, after the context from before the compaction", async () => {
    await fc.assert(
      fc.asyncProperty(conversationSpec, fc.integer({ min: 1, max: 3 }), async (spec, later) => {
        const turns = turnsOf(spec);
        fc.pre(turns.length >= 2);
        const split = Math.max(1, turns.length - later);
        const ops: Op[] = [
          { kind: "turns", count: split },
          { kind: "compact", keepTurns: 1 },
          { kind: "turns", count: turns.length - split },
          { kind: "resume" },
          { kind: "uncompact" },
        ];
        await drive(turns, ops, () => {});
        const session = await openSession(join(dir, `s${fileNumber - 1}.jsonl`), {
          cwd: dir,
          onWarning: () => {},
        });
        try {
          expect(session.effectiveContext()).toEqual({ messages: turns.flat() });
        } finally {
          await session.close();
        }
      }),
      { numRuns: 40 },
    );
  });

  it("pins survive any number of chained compactions word for word, in their own section", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationSpec,
        fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 5 }),
        async (spec, notes, compactions) => {
          const turns = turnsOf(spec);
          const path = join(dir, `s${fileNumber++}.jsonl`);
          let session = await openSession(path, { cwd: dir, onWarning: () => {} });
          try {
            for (const note of notes) await session.appendPin(note);
            for (let round = 0; round < compactions; round++) {
              for (const message of turns[round % turns.length] ?? []) await session.appendMessage(message);
              await session.appendCompaction(record(`S${round}`), []);
              await session.close();
              session = await openSession(path, { cwd: dir, onWarning: () => {} });
            }
            const block = session.effectiveContext().compaction?.summary ?? "";
            const section = block.slice(block.indexOf(PINNED_NOTES_HEADING));
            expect(block.startsWith(`S${compactions - 1}`)).toBe(true);
            notes.forEach((note, index) => {
              expect(section).toContain(`${index + 1}. ${note}`);
            });
            expect(session.pins().map((pin) => pin.text)).toEqual(notes);
          } finally {
            await session.close();
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
