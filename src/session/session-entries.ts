import { randomBytes } from "node:crypto";
import type { CheckpointEntry, RewindEntry } from "./checkpoint-entries.js";
import type { EntryBase } from "./entry-base.js";

export type {
  CheckpointEntry,
  FileChange,
  FileMode,
  FileVersion,
  RewindEntry,
  RewindFileOutcome,
  RewindOutcome,
  RewindScope,
  UncoveredPath,
  UncoveredReason,
} from "./checkpoint-entries.js";

import type {
  CompactionRecord,
  CompactionTrigger,
  ErrorCode,
  LearnedWindow,
  Message,
  SandboxRecord,
} from "../core/index.js";

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
  /** The session this one was started from (a fork, a handoff, a subagent's task); absent for a fresh one. */
  parent?: SessionParent;
}

/** How a session was started from another one. */
export type SessionRelation = "fork" | "handoff" | "task" | "import";

/** The session a session was started from, as its header names it. */
export interface SessionParent {
  /** The parent's header id. */
  id: string;
  /** The parent's file when the child was made (absolute); the id still finds it if it moved. */
  path: string;
  /**
   * What the child is to its parent. Read as any non-empty string, so a header written by a newer
   * panto with a relation this one does not know still opens.
   */
  relation: SessionRelation | (string & {});
  /** The parent's 1-based user turn the child starts after (a fork's point); absent: the whole parent. */
  turn?: number;
  /**
   * Relation "import": the source file's format ("claude-code", "codex", "pi") and the sha256 of its
   * bytes when imported, so importing the same file again finds this session instead of a copy.
   */
  format?: string;
  sha256?: string;
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
  /**
   * The pinned notes in force when the compaction was written, so resuming recovers them without
   * reading further back; pin and unpin entries after it adjust the list.
   */
  pins?: PinnedNote[];
  /**
   * Every context window learned so far, by "provider/model", carried forward here because resuming
   * reads no further back than the latest compaction. Absent when none was learned.
   */
  windows?: Record<string, LearnedWindow>;
  /**
   * The clearings in force when the compaction was written that stub results of its kept copies,
   * carried here because resuming reads no further back than the latest compaction. They apply to
   * this compaction's kept copies only. Absent when none did.
   */
  clearings?: CarriedClearing[];
}

/** One tool result a clearing took out of the context: its call, its size, and the line standing for it. */
export interface ClearedResult {
  toolCallId: string;
  toolName: string;
  /** The result's size when cleared (panto's estimate). */
  tokens: number;
  /** The one line the context holds instead of the result's content. */
  stub: string;
}

/**
 * Old tool results left the context (issue 34): each result written before this entry whose call id
 * it names holds its stub instead of its content, until an `unclear` entry takes the clearing back.
 * The results themselves stay where they are in the file (recall reads them back).
 */
export interface ClearingEntry extends EntryBase {
  type: "clearing";
  results: ClearedResult[];
  /** The request's size before and after (as the provider counts it, see `Agent.contextTokens`). */
  tokensBefore: number;
  tokensAfter: number;
  /** "trigger": the reported prompt passed `clearing.trigger_tokens`; "cold-cache": the cache had expired. */
  reason: "trigger" | "cold-cache";
}

/** A clearing carried on a compaction entry: its id and results. */
export interface CarriedClearing {
  id: string;
  results: CarriedResult[];
}

/** A cleared result among a compaction's kept copies. */
export interface CarriedResult extends ClearedResult {
  /**
   * Which kept copy holds it: its index among the compaction's kept messages. A later result may
   * reuse a cleared call's id (servers that number calls per answer), and only this copy is the
   * cleared one. Absent in files written before it was recorded: the call id alone names the copy.
   */
  copy?: number;
}

/**
 * `/unclear`: the clearing `clearingId` is taken back (its results are whole again). Clearing pauses
 * until the provider reports a prompt of at least `tokensAfter` plus `clearing.min_reclaim_tokens`.
 */
export interface UnclearEntry extends EntryBase {
  type: "unclear";
  clearingId: string;
  tokensBefore: number;
  tokensAfter: number;
}

/**
 * A model's context window, learned from the numbers in an overflow error (never configured).
 * Written when learned; the latest one for a model wins.
 */
export interface WindowEntry extends EntryBase, LearnedWindow {
  type: "window";
  /** "provider/model" whose request was rejected. */
  model: string;
}

/** A pinned note: the id of the pin entry that added it, and its text, verbatim. */
export interface PinnedNote {
  id: string;
  text: string;
}

/** `/pin TEXT`: the note is in force from here on, until an unpin entry names this entry's id. */
export interface PinEntry extends EntryBase {
  type: "pin";
  text: string;
}

/** `/unpin N`: the pin entry `pinId` is no longer in force. */
export interface UnpinEntry extends EntryBase {
  type: "unpin";
  pinId: string;
}

/**
 * `/uncompact`: the compaction `compactionId` is undone. Replay reads on past it to the compaction
 * before it, and drops its kept copies (they duplicate the messages before it).
 */
export interface UncompactEntry extends EntryBase {
  type: "uncompact";
  compactionId: string;
}

/** One failed summary request of a compaction. */
export interface CompactionAttemptRecord {
  /** "provider/model" asked. */
  model: string;
  code: ErrorCode;
  message: string;
}

/** A compaction that failed: on record for `/session`; replay ignores it (the context is unchanged). */
export interface CompactionFailedEntry extends EntryBase {
  type: "compaction-failed";
  trigger: CompactionTrigger;
  /** Every attempt, in order; the last one's error is the compaction's. */
  attempts: CompactionAttemptRecord[];
}

/** The turn starting at entry `firstEntryId` failed for good: replay drops it (entries firstEntryId..this one). */
export interface TurnFailedEntry extends EntryBase {
  type: "turn-failed";
  firstEntryId: string;
  code: ErrorCode;
  error: string;
}

/** The model in use from here on ("provider/model"), written when the user switches (`/model`). */
export interface ModelEntry extends EntryBase {
  type: "model";
  model: string;
}

/**
 * The sandbox the model's tools ran in from here on, written with a run's first prompt (each run
 * may choose another mode). On record for `/session` and the export; replay ignores it.
 */
export interface SandboxEntry extends EntryBase, SandboxRecord {
  type: "sandbox";
}

/**
 * Something kept on record that is no part of the conversation: what `panto import` could not map
 * to a panto entry (an entry type it does not know, a line off the source's active branch), so
 * nothing of the source is lost. Replay, sizing and compaction ignore it.
 */
export interface NoteEntry extends EntryBase {
  type: "note";
  /** What the note is, e.g. "claude-code file-history-snapshot". */
  kind: string;
  /** The kept material, verbatim (a source line's JSON text). */
  text: string;
  /** Where it came from: the source file's 1-based line. */
  line?: number;
}

export type SessionEntry =
  | NoteEntry
  | MessageEntry
  | CompactionEntry
  | TurnFailedEntry
  | PinEntry
  | UnpinEntry
  | UncompactEntry
  | CompactionFailedEntry
  | ModelEntry
  | WindowEntry
  | SandboxEntry
  | CheckpointEntry
  | RewindEntry
  | ClearingEntry
  | UnclearEntry;

/** Every entry type this panto reads; any other type is reported and ignored. */
export const ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "compaction",
  "turn-failed",
  "pin",
  "unpin",
  "uncompact",
  "compaction-failed",
  "model",
  "window",
  "sandbox",
  "checkpoint",
  "rewind",
  "clearing",
  "unclear",
  "note",
]);

/** A new entry id: 8 hex characters from the system's random source. */
export function newEntryId(): string {
  return randomBytes(4).toString("hex");
}

/** A message entry holding an image (in the user's content or a tool result): its bytes live beside the file. */
export function entryHoldsImage(entry: SessionEntry): boolean {
  if (entry.type !== "message") return false;
  const { message } = entry;
  if (message.role === "user") return message.content.some((block) => block.type === "image");
  if (message.role === "tool")
    return message.content.some((result) => result.content.some((block) => block.type === "image"));
  return false;
}
