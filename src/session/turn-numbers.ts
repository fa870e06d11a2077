import { open } from "node:fs/promises";
import { countEntriesInRange } from "./count-session-entries.js";
import { survivingEntries } from "./replay-entries.js";
import type { CompactionEntry, SessionEntry } from "./session-entries.js";

/**
 * Turn numbers, as users and the model see them (`recall`, the compaction block, forks): turn N is
 * the N-th user message entry of the session file, counted from its start whatever replay keeps
 * (summarised, failed, undone and rewound turns all count), kept copies not counted: a copy written
 * with a compaction repeats a turn, it does not start one. `panto sessions` counts turns the same
 * way. Every entry after turn N's user message and before turn N+1's belongs to turn N.
 */
export function startsTurn(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message.role === "user" && entry.keptBy === undefined;
}

/** The turn each of `entries` belongs to (0 before the first user message), counting on from `before`. */
export function turnNumbers(entries: readonly SessionEntry[], before = 0): number[] {
  let turn = before;
  return entries.map((entry) => {
    if (startsTurn(entry)) turn++;
    return turn;
  });
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
 * turns just before it. Returns undefined when neither is known.
 */
export function effectiveTurnNumbers(
  active: readonly SessionEntry[],
  before?: number,
): EffectiveTurnNumbers | undefined {
  const surviving = survivingEntries(active);
  const base = surviving.compaction;
  const start = base === undefined ? 0 : (base.turns?.total ?? before);
  if (start === undefined) return undefined;
  const byId = numberUserMessages(active, start, base);
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
): { numbers: Map<string, number>; total: number } {
  const numbers = new Map<string, number>();
  const compactions = new Map<string, number[]>();
  if (base !== undefined) compactions.set(base.id, base.turns?.kept ?? legacyKept(active, base, start));
  const cursors = new Map<string, number>();
  let total = start;
  for (const entry of active) {
    if (entry.type === "compaction" && entry.turns !== undefined && entry !== base)
      compactions.set(entry.id, entry.turns.kept);
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    if (entry.keptBy === undefined) {
      total++;
      numbers.set(entry.id, total);
      continue;
    }
    const index = cursors.get(entry.keptBy) ?? 0;
    cursors.set(entry.keptBy, index + 1);
    const number = compactions.get(entry.keptBy)?.[index];
    if (number !== undefined) numbers.set(entry.id, number);
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
export async function turnsBefore(path: string, active: readonly SessionEntry[]): Promise<number> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const { turns } = await countEntriesInRange(file, 0, size);
    return Math.max(0, turns - active.filter(startsTurn).length);
  } finally {
    await file.close();
  }
}
