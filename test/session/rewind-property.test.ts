import { readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { groupTurns } from "../../src/compaction/index.js";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import {
  composeCompactionSummary,
  openSession,
  readSessionSnapshot,
  replayEntries,
  type Session,
  turnStarts,
} from "../../src/session/index.js";
import { buildConversation, conversationSpec } from "../compaction/conversation-arbitrary.js";
import { makeTempDir, record, removeTempDir } from "./session-test-helpers.js";

/**
 * Generated sessions with rewinds among compactions, undos and pins, driven through a real session
 * file and checked against a model of what a rewind means: time travel. The context after a rewind
 * to turn N is exactly the one just before turn N began (whatever happened since, including earlier
 * rewinds, compactions and pins), and undoing a rewind gives the context from just before it.
 */
type Op =
  | { kind: "turns"; count: number }
  | { kind: "compact"; keepTurns: number }
  | { kind: "uncompact" }
  | { kind: "pin" }
  | { kind: "rewind"; pick: number }
  | { kind: "undo-rewind" }
  | { kind: "code-rewind" }
  | { kind: "resume" };

const opArbitrary: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("turns" as const), count: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("compact" as const), keepTurns: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.constant({ kind: "uncompact" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "pin" as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("rewind" as const), pick: fc.nat(50) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "undo-rewind" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "code-rewind" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "resume" as const }) },
);

/** The model: the context's parts and, for /uncompact, what each compaction in effect replaced. */
interface State {
  summary?: string;
  messages: Message[];
  pins: string[];
  frames: Array<{ before: Omit<State, "frames" | "pins">; appendedSince: Message[] }>;
}

function expected(state: State): EffectiveContext {
  if (state.summary === undefined && state.pins.length === 0) return { messages: state.messages };
  const summary = composeCompactionSummary({ summary: state.summary ?? "", pins: state.pins });
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

/** Runs the operations, checking the context (live, after resume, and replayed from the whole file) after each. */
async function drive(turns: Message[][], ops: readonly Op[]): Promise<void> {
  const path = join(dir, `r${fileNumber++}.jsonl`);
  let session: Session = await openSession(path, { cwd: dir, onWarning: () => {} });
  let state: State = { messages: [], pins: [], frames: [] };
  // The state just before each turn began (index: turn - 1), and before each rewind entry.
  const beforeTurn: Array<{ id: string; state: State }> = [];
  const beforeRewind: Array<{ id: string; state: State }> = [];
  let nextTurn = 0;
  let summaries = 0;
  let fileBefore = "";
  const check = async (): Promise<void> => {
    expect(session.effectiveContext()).toEqual(expected(state));
    const text = await readFile(path, "utf8").catch(() => "");
    expect(text.startsWith(fileBefore), "earlier lines are never rewritten").toBe(true);
    fileBefore = text;
    if (text === "") return;
    const { entries } = await readSessionSnapshot(path);
    expect(replayEntries(entries).context).toEqual(expected(state));
    expect(turnStarts(entries).map((start) => start.entry.id)).toEqual(beforeTurn.map((turn) => turn.id));
  };
  try {
    for (const op of ops) {
      switch (op.kind) {
        case "turns":
          for (const turn of turns.slice(nextTurn, nextTurn + op.count)) {
            for (const message of turn) {
              // A turn starts at a user message (a leading answer without one is no turn).
              const snapshot = message.role === "user" ? structuredClone(state) : undefined;
              state.messages.push(message);
              for (const frame of state.frames) frame.appendedSince.push(message);
              const entry = await session.appendMessage(message);
              if (snapshot !== undefined) beforeTurn.push({ id: entry.id, state: snapshot });
            }
          }
          nextTurn = Math.min(turns.length, nextTurn + op.count);
          break;
        case "compact": {
          const grouped = groupTurns(state.messages);
          const kept = grouped.slice(grouped.length - op.keepTurns).flatMap((turn) => turn.messages);
          const summary = `SUMMARY-${++summaries}`;
          await session.appendCompaction(record(summary), op.keepTurns === 0 ? [] : kept);
          const before = {
            messages: state.messages,
            ...(state.summary === undefined ? {} : { summary: state.summary }),
          };
          state = {
            summary,
            messages: op.keepTurns === 0 ? [] : [...kept],
            pins: state.pins,
            frames: [...state.frames, { before: structuredClone(before), appendedSince: [] }],
          };
          break;
        }
        case "uncompact": {
          const active = session.activeCompaction();
          const frame = state.frames.at(-1);
          expect(active === undefined).toBe(frame === undefined);
          if (active === undefined || frame === undefined) break;
          await session.appendUncompact(active.id);
          state = {
            ...(frame.before.summary === undefined ? {} : { summary: frame.before.summary }),
            messages: [...frame.before.messages, ...frame.appendedSince],
            pins: state.pins,
            frames: state.frames.slice(0, -1),
          };
          break;
        }
        case "pin": {
          const text = `note ${summaries}-${state.pins.length}`;
          await session.appendPin(text);
          state.pins.push(text);
          break;
        }
        case "rewind":
        case "undo-rewind": {
          const target =
            op.kind === "rewind" ? beforeTurn[op.pick % Math.max(1, beforeTurn.length)] : beforeRewind.at(-1);
          if (target === undefined) break;
          const snapshot = structuredClone(state);
          const entry = await session.appendRewind({
            firstEntryId: target.id,
            scope: "both",
            turn: 1,
            droppedTurns: [],
            files: [],
            outcomes: [],
          });
          beforeRewind.push({ id: entry.id, state: snapshot });
          state = structuredClone(target.state);
          break;
        }
        case "code-rewind": {
          // A code-only rewind changes nothing in the conversation.
          const target = beforeTurn[0];
          if (target === undefined) break;
          const entry = await session.appendRewind({
            firstEntryId: target.id,
            scope: "code",
            turn: 1,
            droppedTurns: [],
            files: [],
            outcomes: [],
          });
          beforeRewind.push({ id: entry.id, state: structuredClone(state) });
          break;
        }
        case "resume":
          await session.close();
          session = await openSession(path, { cwd: dir, onWarning: () => {} });
          break;
      }
      await check();
    }
    await session.close();
    session = await openSession(path, { cwd: dir, onWarning: () => {} });
    await check();
  } finally {
    await session.close();
  }
}

describe("rewinds over generated sessions", () => {
  it("give exactly the context from just before the point, live, after resume and replayed whole (across compactions, undos, pins and earlier rewinds)", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationSpec,
        fc.array(opArbitrary, { minLength: 1, maxLength: 18 }),
        async (spec, ops) => {
          const turns = groupTurns(buildConversation(spec).messages).map((turn) => turn.messages);
          await drive(turns, ops);
        },
      ),
      { numRuns: 80 },
    );
  });
});
