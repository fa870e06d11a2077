import { latestCompleteCompaction } from "./kept-copy-counter.js";
import type { PinnedNote, SessionEntry } from "./session-entries.js";

/**
 * The pinned notes in force after `entries` (in file order, from the header or from a compaction
 * on): the pins recorded on the compaction replay starts at, adjusted by every pin and unpin entry
 * after it, oldest first. Without one, every pin and unpin entry counts. Compactions that are not
 * a starting point (undone or cut off) change nothing.
 */
export function pinsInForce(entries: readonly SessionEntry[]): PinnedNote[] {
  const latest = latestCompleteCompaction(entries);
  const base = entries[latest];
  const pins: PinnedNote[] = base?.type === "compaction" ? [...(base.pins ?? [])] : [];
  for (const entry of entries.slice(Math.max(0, latest))) {
    if (entry.type === "pin") pins.push({ id: entry.id, text: entry.text });
    else if (entry.type === "unpin") {
      const index = pins.findIndex((pin) => pin.id === entry.pinId);
      if (index !== -1) pins.splice(index, 1);
    }
  }
  return pins;
}
