import { open } from "node:fs/promises";
import { readActiveSuffix, survivingEntries } from "../session/index.js";

/** The ids the next request would carry: the active compaction entry and the messages replay keeps. */
export interface EffectiveIds {
  compactionId?: string;
  messageIds: Set<string>;
}

/**
 * Finds the effective context the way resuming does: the session package reads back from the end
 * to the latest complete compaction and replays from there (failed turns and cut-off copies out).
 * Memory grows with that active suffix only, as when resuming.
 */
export async function findEffectiveIds(path: string): Promise<EffectiveIds> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const { entries } = await readActiveSuffix(path, file, size);
    const surviving = survivingEntries(entries);
    const ids: EffectiveIds = { messageIds: new Set(surviving.messages.map((entry) => entry.id)) };
    if (surviving.compaction !== undefined) ids.compactionId = surviving.compaction.id;
    return ids;
  } finally {
    await file.close();
  }
}
