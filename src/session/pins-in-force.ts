import type { PinnedNote, SessionEntry } from "./session-entries.js";

/**
 * The pinned notes in force after `entries` (an active suffix, in file order): the pins recorded on
 * the compaction it starts with, adjusted by every pin and unpin entry after it, oldest first.
 * Compactions later in the suffix (undone or cut off) change nothing.
 */
export function pinsInForce(entries: readonly SessionEntry[]): PinnedNote[] {
  const first = entries[0];
  const pins: PinnedNote[] = first?.type === "compaction" ? [...(first.pins ?? [])] : [];
  for (const entry of entries) {
    if (entry.type === "pin") pins.push({ id: entry.id, text: entry.text });
    else if (entry.type === "unpin") {
      const index = pins.findIndex((pin) => pin.id === entry.pinId);
      if (index !== -1) pins.splice(index, 1);
    }
  }
  return pins;
}
