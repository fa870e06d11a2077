import { open } from "node:fs/promises";
import { countEntriesInRange } from "./count-session-entries.js";
import { survivingEntries } from "./replay-entries.js";
import type { CompactionEntry, MessageEntry, SessionEntry } from "./session-entries.js";

/** Turns a rewind took out of `active`, by the id of the entry they follow (`""`: before the first); see `RewoundTurns`. */
type RewoundTurnCounts = ReadonlyMap<string, number>;

/** Where a user turn begins in a session file's entries. */
export interface TurnStart {
  /** 1-based turn number. */
  turn: number;
  /** Index of the entry in the list given. */
  index: number;
  entry: MessageEntry;
}

/**
 * Whether an entry begins a user turn: a user message that is not one of the copies a compaction
 * writes of the turns it keeps (those repeat turns already counted).
 */
export function isTurnStart(entry: SessionEntry): entry is MessageEntry {
  return entry.type === "message" && entry.message.role === "user" && entry.keptBy === undefined;
}

/**
 * The turn numbers shown to users and to the model: the 1-based count of user message entries from
 * the start of the session file, every one counted whatever replay keeps (failed and rewound turns
 * included), so a number never changes once given. `recall`, the compaction block ("turns 1 to N"),
 * `/rewind`, `/fork` and `panto sessions` all count this way. Every entry after turn N's user
 * message and before turn N+1's belongs to turn N. `entries` must be the whole file's, in order.
 */
export function turnStarts(entries: readonly SessionEntry[]): TurnStart[] {
  const starts: TurnStart[] = [];
  entries.forEach((entry, index) => {
    if (isTurnStart(entry)) starts.push({ turn: starts.length + 1, index, entry });
  });
  return starts;
}

/** Each turn-starting entry's id mapped to its turn number (see `turnStarts`). */
export function turnNumbers(entries: readonly SessionEntry[]): Map<string, number> {
  return new Map(turnStarts(entries).map((start) => [start.entry.id, start.turn]));
}

/** The turn numbers of the effective context's turns, and how many turns the file holds. */
export interface EffectiveTurnNumbers {
  /** One number per user message of the effective context, in order (kept copies numbered as the turns they copy). */
  numbers: number[];
  /** The number of the file's latest turn: how many turns it holds. */
  total: number;
}

/**
 * Numbers the user messages of the effective context replayed from `active` (the entries from the
 * compaction in effect on, as `Session.activeEntries` gives them, or the whole file when none is in
 * effect). The compaction in effect says how many turns came before it and which turns its copies
 * repeat (its `turns`); without that record (a compaction written before turns were numbered)
 * `before` must say how many turns the file holds before it, and its copies are taken for the
 * turns just before it. Returns undefined when neither is known. `rewound`: the turns a rewind took
 * out of `active` when it was read (a session file's suffix leaves them out), which still count.
 */
export function effectiveTurnNumbers(
  active: readonly SessionEntry[],
  before?: number,
  rewound: RewoundTurnCounts = new Map(),
): EffectiveTurnNumbers | undefined {
  const surviving = survivingEntries(active);
  const base = surviving.compaction;
  const start = base === undefined ? 0 : (base.turns?.total ?? before);
  if (start === undefined) return undefined;
  const byId = numberUserMessages(active, start, base, rewound);
  const numbers: number[] = [];
  for (const entry of surviving.messages) {
    if (entry.message.role !== "user") continue;
    const number = byId.numbers.get(entry.id);
    if (number === undefined) return undefined;
    numbers.push(number);
  }
  return { numbers, total: byId.total };
}

/** Turn numbers by entry id for every user message of `active`, originals and copies. */
function numberUserMessages(
  active: readonly SessionEntry[],
  start: number,
  base: CompactionEntry | undefined,
  rewound: RewoundTurnCounts,
): { numbers: Map<string, number>; total: number } {
  const numbers = new Map<string, number>();
  const compactions = new Map<string, number[]>();
  if (base !== undefined) compactions.set(base.id, base.turns?.kept ?? legacyKept(active, base, start));
  const cursors = new Map<string, number>();
  let total = start + (rewound.get("") ?? 0);
  for (const entry of active) {
    if (entry.type === "compaction" && entry.turns !== undefined && entry !== base)
      compactions.set(entry.id, entry.turns.kept);
    if (entry.type === "message" && entry.message.role === "user") {
      if (entry.keptBy === undefined) {
        total++;
        numbers.set(entry.id, total);
      } else {
        const index = cursors.get(entry.keptBy) ?? 0;
        cursors.set(entry.keptBy, index + 1);
        const number = compactions.get(entry.keptBy)?.[index];
        if (number !== undefined) numbers.set(entry.id, number);
      }
    }
    total += rewound.get(entry.id) ?? 0;
  }
  return { numbers, total };
}

/** A compaction without a turn record: its user copies taken for the last turns before it. */
function legacyKept(active: readonly SessionEntry[], base: CompactionEntry, start: number): number[] {
  const copies = active.filter(
    (entry) => entry.type === "message" && entry.keptBy === base.id && entry.message.role === "user",
  ).length;
  return Array.from({ length: copies }, (_, index) => start - copies + 1 + index);
}

/**
 * How many turns the session file at `path` holds before `active` (its entries from the compaction
 * in effect on): for a compaction written before turns were numbered, which does not say. Counts
 * the whole file by the first bytes of its lines (no JSON parsed), as `panto sessions` does.
 */
export async function turnsBefore(
  path: string,
  active: readonly SessionEntry[],
  rewound: RewoundTurnCounts = new Map(),
): Promise<number> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const { turns } = await countEntriesInRange(file, 0, size);
    const after = active.filter(isTurnStart).length + [...rewound.values()].reduce((a, b) => a + b, 0);
    return Math.max(0, turns - after);
  } finally {
    await file.close();
  }
}
