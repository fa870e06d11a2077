import type { MessageEntry, SessionEntry } from "./session-entries.js";

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
 * included), so a number never changes once given. `entries` must be the whole file's, in order.
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
