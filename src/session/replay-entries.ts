import type { EffectiveContext } from "../core/index.js";
import { blockParts, composeCompactionSummary } from "./compose-compaction-summary.js";
import {
  incompleteCompactionProblem,
  KeptCopyCounter,
  latestCompleteCompaction,
} from "./kept-copy-counter.js";
import { pinsInForce } from "./pins-in-force.js";
import { repairToolPairing } from "./repair-tool-pairing.js";
import { withoutRewound } from "./rewound-ranges.js";
import type { CompactionEntry, MessageEntry, SessionEntry } from "./session-entries.js";

/** The effective context replayed from entries, and everything replay had to ignore or repair. */
export interface ReplayResult {
  context: EffectiveContext;
  problems: string[];
}

/** The message entries that still count after the latest compaction, failed turns removed. */
export interface SurvivingEntries {
  compaction?: CompactionEntry;
  messages: MessageEntry[];
  problems: string[];
}

/**
 * Entries from the latest complete compaction entry on (all of them when there is none). A
 * compaction whose kept copies did not all land is not a starting point: replay reads on past it.
 */
export function activeSuffix(entries: readonly SessionEntry[]): readonly SessionEntry[] {
  const latest = latestCompleteCompaction(entries);
  return latest === -1 ? entries : entries.slice(latest);
}

/**
 * Reports the compactions inside the active suffix that were cut off (the others were undone by
 * `/uncompact`, which is no problem). Either way their copies duplicate messages before them, so
 * `replays` drops them.
 */
function reportIncompleteCompactions(active: readonly SessionEntry[], problems: string[]): void {
  const counter = new KeptCopyCounter();
  for (let index = active.length - 1; index > 0; index--) {
    const entry = active[index] as SessionEntry;
    if (entry.type === "compaction" && !counter.isUndone(entry))
      problems.unshift(incompleteCompactionProblem(entry, counter.copiesOf(entry)));
    counter.see(entry);
  }
}

/**
 * Whether a message entry replays: not in a failed turn, and not a copy of a cut-off compaction. A
 * copy naming no compaction of the active suffix cannot be a duplicate of one: it replays as an
 * ordinary message (the file reader warns about it).
 */
function replays(entry: MessageEntry, removed: boolean, compactions: CompactionIds): boolean {
  if (removed) return false;
  const { keptBy } = entry;
  return keptBy === undefined || keptBy === compactions.active || !compactions.all.has(keptBy);
}

interface CompactionIds {
  /** The compaction replay starts from, if any. */
  active: string | undefined;
  /** Every compaction entry in the active suffix (the cut-off ones after it included). */
  all: ReadonlySet<string>;
}

/**
 * Marks the entries each turn-failed entry removes: from its firstEntryId through itself. A
 * firstEntryId not found before it in the active suffix is ignored (and reported).
 */
function failedTurnMask(active: readonly SessionEntry[], problems: string[]): boolean[] {
  const removed = active.map(() => false);
  const indexById = new Map<string, number>();
  active.forEach((entry, index) => {
    if (entry.type === "turn-failed") {
      const start = indexById.get(entry.firstEntryId);
      if (start === undefined) {
        problems.push(
          `turn-failed entry ${entry.id} names entry ${entry.firstEntryId}, which is not in the active part of the session (after the latest compaction); ignored`,
        );
      } else {
        removed.fill(true, originalTurnStart(active, start), index + 1);
      }
    }
    indexById.set(entry.id, index);
  });
  return removed;
}

/**
 * Where a failed turn really starts. A turn-failed entry written right after an overflow compaction
 * names the kept copy of the turn in flight; once that compaction is undone, its copies no longer
 * replay and the turn is the original one before the compaction: the last user message before it.
 * A copy of a compaction that was cut off (never undone) names only itself and what follows.
 */
function originalTurnStart(active: readonly SessionEntry[], start: number): number {
  const first = active[start];
  const base = active[0];
  if (first?.type !== "message" || first.keptBy === undefined) return start;
  if (base?.type === "compaction" && first.keptBy === base.id) return start;
  // Only an undone compaction stands in for the original turn; a cut-off one simply never replays.
  const undone = active.some((entry) => entry.type === "uncompact" && entry.compactionId === first.keptBy);
  if (!undone) return start;
  const compaction = active.findIndex((entry) => entry.id === first.keptBy);
  for (let index = compaction - 1; index >= 0; index--) {
    const entry = active[index] as SessionEntry;
    if (entry.type === "message" && entry.message.role === "user" && entry.keptBy === undefined) return index;
  }
  return start;
}

/**
 * The latest compaction entry and the message entries after it, failed turns removed. Rewound
 * ranges are taken out first, so everything after reads the entries as they stood at each rewind's
 * point (its compaction, its failed turns, its undos).
 */
export function survivingEntries(all: readonly SessionEntry[]): SurvivingEntries {
  const problems: string[] = [];
  const entries = withoutRewound(all, problems);
  const latest = latestCompleteCompaction(entries);
  const active = latest === -1 ? entries : entries.slice(latest);
  reportIncompleteCompactions(active, problems);
  const removed = failedTurnMask(active, problems);
  // Read back to the header past undone compactions, the suffix may start with one: not a base.
  const first = active[0];
  const compaction = latest !== -1 && first?.type === "compaction" ? first : undefined;
  const compactions: CompactionIds = {
    active: compaction?.id,
    all: new Set(active.filter((entry) => entry.type === "compaction").map((entry) => entry.id)),
  };
  const messages = active.filter(
    (entry, index): entry is MessageEntry =>
      entry.type === "message" && replays(entry, removed[index] === true, compactions),
  );
  return compaction === undefined ? { messages, problems } : { compaction, messages, problems };
}

/**
 * Replays session entries to the effective context (spec rule 3): the latest compaction block, then
 * every message after it except those of failed turns (DESIGN "Turns") and of rewound ones (a
 * rewind entry drops every entry from its point through itself), with tool-call/result
 * pairing repaired in memory. Older compactions and everything before them contribute nothing.
 * The block carries the summary, the recall pointer, the facts restored into it and the pinned
 * notes in force; with
 * pinned notes and no compaction yet, a block holding just the notes leads the context.
 */
export function replayEntries(entries: readonly SessionEntry[]): ReplayResult {
  const surviving = survivingEntries(entries);
  const pairing = repairToolPairing(surviving.messages.map((entry) => entry.message));
  const messages = pairing.messages;
  const problems = [...surviving.problems, ...pairing.problems];
  const pins = pinsInForce(withoutRewound(entries)).map((pin) => pin.text);
  const base = surviving.compaction;
  if (base === undefined && pins.length === 0) return { context: { messages }, problems };
  const summary = composeCompactionSummary({
    ...(base === undefined ? { summary: "" } : blockParts(base)),
    pins,
  });
  return { context: { compaction: { type: "compaction", summary }, messages }, problems };
}
