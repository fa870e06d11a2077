import { appendFile, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionParent } from "./session-entries.js";

/** The cache file beside a project's sessions. Deleting it loses nothing: listing rebuilds it. */
export const SESSION_INDEX_FILE = "index.jsonl";

/**
 * What a listing learned about one session file by counting it: its header id, and the counts of
 * every complete line up to byte `counted_to`. A session file only grows, so a later listing counts
 * just the bytes after `counted_to`; a file that shrank or changed its header is counted afresh.
 */
export interface SessionIndexRecord {
  file: string;
  id: string;
  counted_to: number;
  turns: number;
  compactions: number;
  /**
   * What the listing shows of the file's head, and the modification time it was counted at: a file
   * whose size is still `counted_to` and whose time is still `mtime_ms` is listed from the record
   * alone, without being opened. Absent from records older than these fields.
   */
  head?: SessionIndexHead;
}

/** A session file's head as a listing shows it (see SessionSummary). */
export interface SessionIndexHead {
  created: string;
  cwd: string;
  header_end: number;
  mtime_ms: number;
  first_prompt?: string;
  parent?: SessionParent;
}

function isHead(value: unknown): value is SessionIndexHead {
  if (typeof value !== "object" || value === null) return false;
  const head = value as Record<string, unknown>;
  return (
    typeof head.created === "string" &&
    typeof head.cwd === "string" &&
    typeof head.header_end === "number" &&
    typeof head.mtime_ms === "number" &&
    (head.first_prompt === undefined || typeof head.first_prompt === "string") &&
    (head.parent === undefined || (typeof head.parent === "object" && head.parent !== null))
  );
}

/** The index as read: the latest record per file name, and how many lines the file held. */
export interface SessionIndex {
  records: Map<string, SessionIndexRecord>;
  lines: number;
}

/** Rewrite the index once it holds this many times more lines than there are sessions. */
const REWRITE_FACTOR = 4;

function isRecord(value: unknown): value is SessionIndexRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.file === "string" &&
    typeof record.id === "string" &&
    [record.counted_to, record.turns, record.compactions].every(
      (number) => typeof number === "number" && Number.isInteger(number) && number >= 0,
    ) &&
    (record.head === undefined || isHead(record.head))
  );
}

/** The latest record per file name; a missing, unreadable or partly garbled index yields what parses. */
export async function readSessionIndex(directory: string): Promise<SessionIndex> {
  const records = new Map<string, SessionIndexRecord>();
  let text: string;
  try {
    text = await readFile(join(directory, SESSION_INDEX_FILE), "utf8");
  } catch {
    return { records, lines: 0 };
  }
  let lines = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    lines++;
    try {
      const value: unknown = JSON.parse(line);
      if (isRecord(value)) records.set(value.file, value);
    } catch {
      // A torn line in a cache costs one recount, nothing more.
    }
  }
  return { records, lines };
}

/**
 * Appends fresh records; when stale lines dominate, rewrites the index with the current records
 * only (through a temporary file and a rename, so a reader never sees half an index).
 */
export async function updateSessionIndex(
  directory: string,
  fresh: readonly SessionIndexRecord[],
  current: ReadonlyMap<string, SessionIndexRecord>,
  linesBefore: number,
): Promise<void> {
  if (fresh.length === 0) return;
  const path = join(directory, SESSION_INDEX_FILE);
  const toLines = (records: Iterable<SessionIndexRecord>): string =>
    [...records].map((record) => `${JSON.stringify(record)}\n`).join("");
  if (linesBefore + fresh.length <= REWRITE_FACTOR * Math.max(current.size, 8)) {
    await appendFile(path, toLines(fresh), { mode: 0o600 });
    return;
  }
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, toLines(current.values()), { mode: 0o600 });
  await rename(temporary, path);
}
