import type { SessionEntry } from "../session/index.js";

/** Why replay leaves a turn out although the file keeps it. */
export type DropReason = "failed" | "rewound";

/**
 * The entry types that take turns out of replay. Each is parsed whenever the scan meets it; a new
 * one (issue 26's `rewind`) is one name here and one case in {@link droppedTurns}.
 */
export const DROPPING_TYPES: ReadonlySet<string> = new Set(["turn-failed", "rewind"]);

/**
 * The turns `entry` takes out of replay, and why: a `turn-failed` entry the turn whose user message
 * it names (its number found by `turnOf`; when the message is unknown, `current`, the turn the entry
 * is written in, since a turn is marked failed at its end). Undefined for any other entry.
 */
export function droppedTurns(
  entry: SessionEntry,
  turnOf: (entryId: string) => number | undefined,
  current: number,
): { reason: DropReason; turns: number[] } | undefined {
  switch (entry.type) {
    case "turn-failed":
      return { reason: "failed", turns: [turnOf(entry.firstEntryId) ?? current] };
    default:
      return undefined;
  }
}
