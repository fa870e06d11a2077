import type { PinnedNote, SessionEntry } from "./session-entries.js";
import { foldEntries } from "./session-model.js";

/**
 * The pinned notes in force after `entries` (in file order, from the header or from a compaction
 * on): the pins recorded on the compaction replay starts at, adjusted by every pin and unpin entry
 * after it that no rewind took back, oldest first. Without one, every such pin and unpin entry
 * counts. Compactions that are not a starting point (undone or cut off) change nothing.
 */
export function pinsInForce(entries: readonly SessionEntry[]): PinnedNote[] {
  const view = foldEntries(entries).view();
  const start = view.base?.position ?? 0;
  const base = entries[start];
  const pins: PinnedNote[] =
    view.base !== undefined && base?.type === "compaction" ? [...(base.pins ?? [])] : [];
  for (let index = start; index < entries.length; index++) {
    const entry = entries[index] as SessionEntry;
    if (view.rewound(index)) continue;
    if (entry.type === "pin") pins.push({ id: entry.id, text: entry.text });
    else if (entry.type === "unpin") {
      const at = pins.findIndex((pin) => pin.id === entry.pinId);
      if (at !== -1) pins.splice(at, 1);
    }
  }
  return pins;
}
