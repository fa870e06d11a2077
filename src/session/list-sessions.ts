import { type FileHandle, open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { optional } from "../core/index.js";
import {
  countEntriesInBuffer,
  countEntriesInRange,
  type EntryCounts,
  type RangeCount,
} from "./count-session-entries.js";
import { readExactly } from "./read-lines-backward.js";
import { HEAD_BYTES, readSessionHead, type SessionHead } from "./read-session-head.js";
import type { SessionParent } from "./session-entries.js";
import { isSessionError } from "./session-error.js";
import {
  readSessionIndex,
  SESSION_INDEX_FILE,
  type SessionIndexHead,
  type SessionIndexRecord,
  updateSessionIndex,
} from "./session-index.js";

/** One session of a project, as `panto sessions` shows it. */
export interface SessionSummary {
  path: string;
  /** The file name within the project's session folder. */
  file: string;
  /** The header id. */
  id: string;
  /** The header's `created` time (ISO). */
  created: string;
  /** The header's working directory: where the session was started. */
  cwd: string;
  /** The file's last modification time (ISO): when the session was last written. */
  modified: string;
  /** Text of the first user message, when it starts in the file's first 64 KB. */
  firstPrompt?: string;
  /** User messages (kept copies written by a compaction not counted). */
  turns: number;
  compactions: number;
  /** False when the counts cover only the file's last 64 KB: they are lower bounds then. */
  countsExact: boolean;
  size: number;
  /** The session this one was started from (fork, handoff, task), as its header names it. */
  parent?: SessionParent;
}

export interface ListSessionsOptions {
  /**
   * Bytes this listing may read to count entries of files the index does not cover yet. Files
   * beyond it get lower bounds from their tail now and exact counts on a later listing.
   */
  countBudgetBytes?: number;
}

export interface SessionListing {
  /** Newest first (by modification time). */
  sessions: SessionSummary[];
  /** Files that are not readable sessions, each message naming the file. */
  problems: string[];
}

const DEFAULT_COUNT_BUDGET = 32 * 1024 * 1024;

/**
 * Lists the session files in `directory` reading only each file's first 64 KB (header, first
 * prompt) and, for the counts, the bytes appended since the last listing recorded them in the
 * folder's index (a cache: missing or stale, it is rebuilt within the byte budget).
 */
export async function listSessions(
  directory: string,
  options: ListSessionsOptions = {},
): Promise<SessionListing> {
  const names = await sessionFileNames(directory);
  const index = await readSessionIndex(directory);
  const state = {
    budget: options.countBudgetBytes ?? DEFAULT_COUNT_BUDGET,
    fresh: [] as SessionIndexRecord[],
  };
  const listing: SessionListing = { sessions: [], problems: [] };
  const mtimes = new Map<string, number>();
  for (const name of names) {
    try {
      const summary = await summarise(directory, name, index.records, state);
      if (summary === undefined) continue;
      listing.sessions.push(summary.summary);
      mtimes.set(name, summary.mtimeMs);
    } catch (error) {
      if (!isSessionError(error) && (error as NodeJS.ErrnoException).code !== "EACCES") throw error;
      listing.problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  listing.sessions.sort(
    (a, b) => (mtimes.get(b.file) ?? 0) - (mtimes.get(a.file) ?? 0) || byName(b.file, a.file),
  );
  for (const record of state.fresh) index.records.set(record.file, record);
  await updateSessionIndex(directory, state.fresh, index.records, index.lines).catch(() => {
    // The index is only a cache; a read-only folder lists fine without it.
  });
  return listing;
}

async function sessionFileNames(directory: string): Promise<string[]> {
  try {
    const names = await readdir(directory);
    return names.filter((name) => name.endsWith(".jsonl") && name !== SESSION_INDEX_FILE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

interface CountState {
  budget: number;
  fresh: SessionIndexRecord[];
}

async function summarise(
  directory: string,
  name: string,
  records: ReadonlyMap<string, SessionIndexRecord>,
  state: CountState,
): Promise<{ summary: SessionSummary; mtimeMs: number } | undefined> {
  const path = join(directory, name);
  const info = await stat(path);
  // An empty file is a session whose header never landed: nothing to list or resume.
  if (!info.isFile() || info.size === 0) return undefined;
  const known = records.get(name);
  // Unchanged since the index counted it: listed from the record, the file never opened.
  if (known?.head !== undefined && known.counted_to === info.size && known.head.mtime_ms === info.mtimeMs)
    return { summary: fromRecord(path, known, known.head, info.mtime), mtimeMs: info.mtimeMs };
  const file = await open(path, "r");
  try {
    const head = await readSessionHead(path, file, info.size);
    const counts = await countEntries(file, name, head, info, records.get(name), state);
    const summary: SessionSummary = {
      path,
      file: name,
      id: head.header.id,
      created: head.header.created,
      cwd: head.header.cwd,
      modified: info.mtime.toISOString(),
      ...optional("firstPrompt", head.firstPrompt),
      turns: counts.turns,
      compactions: counts.compactions,
      countsExact: counts.exact,
      size: info.size,
      ...optional("parent", head.header.parent),
    };
    return { summary, mtimeMs: info.mtimeMs };
  } finally {
    await file.close();
  }
}

function fromRecord(
  path: string,
  record: SessionIndexRecord,
  head: SessionIndexHead,
  modified: Date,
): SessionSummary {
  return {
    path,
    file: record.file,
    id: record.id,
    created: head.created,
    cwd: head.cwd,
    modified: modified.toISOString(),
    ...optional("firstPrompt", head.first_prompt),
    turns: record.turns,
    compactions: record.compactions,
    countsExact: true,
    size: record.counted_to,
    ...optional("parent", head.parent),
  };
}

/** What the index keeps of a head, so that the next listing of an unchanged file need not read it. */
function indexHead(head: SessionHead, mtimeMs: number): SessionIndexHead {
  return {
    created: head.header.created,
    cwd: head.header.cwd,
    header_end: head.headerEnd,
    mtime_ms: mtimeMs,
    ...optional("first_prompt", head.firstPrompt),
    ...optional("parent", head.header.parent),
  };
}

/** Exact counts from the index plus the bytes after it, else from the whole file, else a tail's lower bound. */
async function countEntries(
  file: FileHandle,
  name: string,
  head: SessionHead,
  info: { size: number; mtimeMs: number },
  record: SessionIndexRecord | undefined,
  state: CountState,
): Promise<EntryCounts & { exact: boolean }> {
  const { size } = info;
  const usable = record !== undefined && record.id === head.header.id && record.counted_to <= size;
  const base: EntryCounts = usable ? record : { turns: 0, compactions: 0 };
  const from = usable ? record.counted_to : head.headerEnd;
  if (size - from <= state.budget) {
    state.budget -= size - from;
    const added = await countEntriesInRange(file, from, size);
    const counts = { turns: base.turns + added.turns, compactions: base.compactions + added.compactions };
    // The head is recorded only with counts that reach the file's end: then size and time alone
    // tell the next listing that nothing changed.
    const complete = added.end === size;
    if (!usable || added.end !== from || (complete && record.head?.mtime_ms !== info.mtimeMs))
      state.fresh.push({
        file: name,
        id: head.header.id,
        counted_to: added.end,
        ...counts,
        ...optional("head", complete ? indexHead(head, info.mtimeMs) : undefined),
      });
    return { ...counts, exact: true };
  }
  return { ...(await countTail(file, head.headerEnd, size)), exact: false };
}

/** Counts the complete lines in the last 64 KB (the first, cut-off line skipped). */
async function countTail(file: FileHandle, headerEnd: number, size: number): Promise<RangeCount> {
  const start = Math.max(headerEnd, size - HEAD_BYTES);
  const buffer = Buffer.allocUnsafe(size - start);
  await readExactly(file, buffer, start);
  const firstLine = start === headerEnd ? 0 : buffer.indexOf(0x0a) + 1;
  return countEntriesInBuffer(buffer.subarray(firstLine));
}

/**
 * Names in code-unit order: session file names are ASCII, and localeCompare's first call in a
 * process starts ICU's collation, about 6 ms of a listing or of `-c`.
 */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
