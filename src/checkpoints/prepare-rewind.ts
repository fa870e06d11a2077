import { join } from "node:path";
import {
  type RewindScope,
  readSessionSnapshot,
  rewoundMask,
  type SessionEntry,
  turnStarts,
} from "../session/index.js";
import { storeDirectory } from "./checkpoint-store.js";
import { type CodePlan, planCodeRewind } from "./plan-code-rewind.js";
import { type FileVerdict, judgeFiles, type ObjectsDirFor } from "./restore-files.js";
import { RewindError } from "./rewind-error.js";

/** Where to rewind to: just before a turn began, or just before the latest rewind (undoing it). */
export type RewindTarget = { turn: number } | { undo: true };

export interface PrepareRewindOptions {
  sessionPath: string;
  pantoHome: string;
  target: RewindTarget;
  scope: RewindScope;
}

/** A rewind worked out and checked against the files, nothing changed yet (all a dry run does). */
export interface PreparedRewind {
  sessionPath: string;
  scope: RewindScope;
  /** The entry rewound to: the state is as just before it was written. */
  point: { index: number; entryId: string };
  /** The turn whose start is the point (for an undo: the first turn after the undone rewind's point... its next turn). */
  turn: number;
  undo: boolean;
  /** Turns the context loses (those it holds now) and turns it gets back (rewound ones before the point). */
  droppedTurns: number[];
  restoredTurns: number[];
  /** The code part; undefined for a conversation-only rewind. */
  code?: { plan: CodePlan; verdicts: FileVerdict[] };
}

/** Where the objects of a workspace's store are. */
export function objectsDirFor(pantoHome: string): ObjectsDirFor {
  return (root) => join(storeDirectory(pantoHome, root), "git", "objects");
}

function resolvePoint(
  entries: readonly SessionEntry[],
  target: RewindTarget,
): { index: number; turn: number } {
  const starts = turnStarts(entries);
  if ("turn" in target) {
    const start = starts[target.turn - 1];
    if (start === undefined)
      throw new RewindError(
        starts.length === 0
          ? "the session has no turns to rewind to"
          : `there is no turn ${target.turn}: the session has turns 1 to ${starts.length}`,
      );
    return { index: start.index, turn: start.turn };
  }
  const index = entries.findLastIndex((entry) => entry.type === "rewind");
  if (index === -1) throw new RewindError("the session has no rewind to undo");
  return { index, turn: starts.filter((start) => start.index < index).length + 1 };
}

/** Turn numbers whose starting entries `mask` marks, or does not mark. */
function turnsBy(entries: readonly SessionEntry[], mask: readonly boolean[], marked: boolean): Set<number> {
  return new Set(
    turnStarts(entries)
      .filter((start) => mask[start.index] === marked)
      .map((start) => start.turn),
  );
}

/** The turns a rewind to `index` takes out of the context and brings back, as replay would have it after. */
function conversationEffect(entries: readonly SessionEntry[], index: number) {
  const point = entries[index] as SessionEntry;
  const latest = entries.findLastIndex((entry) => entry.id === point.id);
  if (latest !== index)
    throw new RewindError(`entry ${point.id} appears more than once in the session; rewind to another turn`);
  const probe: SessionEntry = {
    type: "rewind",
    id: "probe",
    ts: "",
    firstEntryId: point.id,
    scope: "conversation",
    turn: 0,
    droppedTurns: [],
    files: [],
    outcomes: [],
  };
  const now = rewoundMask(entries);
  const after = rewoundMask([...entries, probe]);
  const keptNow = turnsBy(entries, now, false);
  const keptAfter = turnsBy(entries, after.slice(0, entries.length), false);
  return {
    droppedTurns: [...keptNow].filter((turn) => !keptAfter.has(turn)),
    restoredTurns: [...keptAfter].filter((turn) => !keptNow.has(turn)),
  };
}

/** The turn each entry index belongs to (0 before the first turn). */
function turnLookup(entries: readonly SessionEntry[]): (index: number) => number {
  const starts = turnStarts(entries);
  return (index) => starts.filter((start) => start.index <= index).length;
}

/**
 * Works out a rewind of the session file at `sessionPath` (read whole and read only): which turns
 * leave the context and come back, and for the code which files go back, which are conflicts and
 * what the checkpoints could not cover. Writes nothing anywhere.
 */
export async function prepareRewind(options: PrepareRewindOptions): Promise<PreparedRewind> {
  const { entries } = await readSessionSnapshot(options.sessionPath);
  const point = resolvePoint(entries, options.target);
  const entryId = (entries[point.index] as SessionEntry).id;
  const conversation =
    options.scope === "code"
      ? { droppedTurns: [], restoredTurns: [] }
      : conversationEffect(entries, point.index);
  const prepared: PreparedRewind = {
    sessionPath: options.sessionPath,
    scope: options.scope,
    point: { index: point.index, entryId },
    turn: point.turn,
    undo: "undo" in options.target,
    ...conversation,
  };
  if (options.scope === "conversation") return prepared;
  const plan = planCodeRewind(entries, point.index, turnLookup(entries));
  // Files are judged only when they could be restored: a blocked plan restores none.
  const verdicts =
    plan.blockers.length > 0 ? [] : await judgeFiles(objectsDirFor(options.pantoHome), plan.files, false);
  return { ...prepared, code: { plan, verdicts } };
}
