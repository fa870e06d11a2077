import { randomBytes } from "node:crypto";
import type { CompactionRecord, ErrorCode, Message } from "../core/index.js";

/** The session format version this panto writes and reads. */
export const SESSION_VERSION = 1;

/** Line 1 of every session file. */
export interface SessionHeader {
  type: "session";
  version: 1;
  id: string;
  /** ISO time the session was created. */
  created: string;
  /** Working directory the session was started in. */
  cwd: string;
}

/** What every entry after the header carries. */
export interface EntryBase {
  /** Short random id, unique within the file. */
  id: string;
  /** ISO time the entry was appended. */
  ts: string;
}

/** One message with its content blocks (and, for assistant messages, provider, model, usage, stop reason). */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: Message;
  /**
   * Set on the kept copies written with a compaction: the id of that compaction entry. Lets replay
   * count the copies that landed, and tell them apart from messages appended later.
   */
  keptBy?: string;
}

/** A compaction: replay starts here; everything before it contributes nothing to the effective context. */
export interface CompactionEntry extends EntryBase, CompactionRecord {
  type: "compaction";
  /**
   * How many kept copies (message entries with `keptBy` naming this entry) were written right after
   * it. Fewer in the file means the write was cut off: replay ignores the compaction. Absent in
   * files from before this field existed; such a compaction counts as complete.
   */
  keptMessages?: number;
}

/** The turn starting at entry `firstEntryId` failed for good: replay drops it (entries firstEntryId..this one). */
export interface TurnFailedEntry extends EntryBase {
  type: "turn-failed";
  firstEntryId: string;
  code: ErrorCode;
  error: string;
}

export type SessionEntry = MessageEntry | CompactionEntry | TurnFailedEntry;

/** A new entry id: 8 hex characters from the system's random source. */
export function newEntryId(): string {
  return randomBytes(4).toString("hex");
}
