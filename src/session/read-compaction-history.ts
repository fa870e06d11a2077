import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parseSessionLine } from "./parse-session-line.js";
import type { CompactionEntry, CompactionFailedEntry, UncompactEntry } from "./session-entries.js";

/** Every compaction-related entry of a session file, in file order. */
export type CompactionHistoryEntry = CompactionEntry | CompactionFailedEntry | UncompactEntry;

/** Entries are written by JSON.stringify with `type` first, so a line's start tells its type. */
const WANTED_PREFIXES = ['{"type":"compaction"', '{"type":"compaction-failed"', '{"type":"uncompact"'];

/**
 * Reads the whole session file for its compactions (failed ones and undos included), for
 * `/session`. Unlike resuming, this reads every line, streamed so a file of any size fits in
 * memory, and parses only the lines whose start names a compaction type. Lines that do not parse
 * are skipped here; resuming reports them.
 */
export async function readCompactionHistory(path: string): Promise<CompactionHistoryEntry[]> {
  const history: CompactionHistoryEntry[] = [];
  const lines = createInterface({
    input: createReadStream(path, "utf8"),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const line of lines) {
    if (!WANTED_PREFIXES.some((prefix) => line.startsWith(prefix))) continue;
    const parsed = parseSessionLine(line);
    if (parsed.kind !== "entry") continue;
    const { entry } = parsed;
    if (entry.type === "compaction" || entry.type === "compaction-failed" || entry.type === "uncompact")
      history.push(entry);
  }
  return history;
}
