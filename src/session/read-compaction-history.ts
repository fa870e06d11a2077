import { readFile } from "node:fs/promises";
import { parseSessionLine } from "./parse-session-line.js";
import type { CompactionEntry, CompactionFailedEntry, UncompactEntry } from "./session-entries.js";

/** Every compaction-related entry of a session file, in file order. */
export type CompactionHistoryEntry = CompactionEntry | CompactionFailedEntry | UncompactEntry;

/**
 * Reads the whole session file for its compactions (failed ones and undos included), for
 * `/session`. Unlike resuming, this reads every line: a user command may take the time. Lines that
 * do not parse are skipped here; resuming reports them.
 */
export async function readCompactionHistory(path: string): Promise<CompactionHistoryEntry[]> {
  const text = await readFile(path, "utf8");
  const history: CompactionHistoryEntry[] = [];
  for (const line of text.split("\n").slice(1)) {
    if (line === "") continue;
    const parsed = parseSessionLine(line);
    if (parsed.kind !== "entry") continue;
    const { entry } = parsed;
    if (entry.type === "compaction" || entry.type === "compaction-failed" || entry.type === "uncompact")
      history.push(entry);
  }
  return history;
}
