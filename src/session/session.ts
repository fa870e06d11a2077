import type {
  CompactionRecord,
  CompactionTrigger,
  EffectiveContext,
  ErrorCode,
  LearnedWindow,
  Message,
  SandboxRecord,
} from "../core/index.js";
import type { RewoundTurns } from "./read-active-suffix.js";
import type {
  CheckpointEntry,
  ClearingEntry,
  CompactionAttemptRecord,
  CompactionEntry,
  CompactionFailedEntry,
  MessageEntry,
  ModelEntry,
  PinEntry,
  PinnedNote,
  RewindEntry,
  SandboxEntry,
  SessionEntry,
  SessionHeader,
  TurnFailedEntry,
  UnclearEntry,
  UncompactEntry,
  UnpinEntry,
  WindowEntry,
} from "./session-entries.js";

export interface OpenSessionOptions {
  /** Working directory recorded in the header of a new session. */
  cwd: string;
  /**
   * Called with each problem found in the file (torn or unparsable lines, unknown entry types,
   * repaired tool pairing), every message naming the file. Default: `process.emitWarning`.
   */
  onWarning?: (message: string) => void;
  /**
   * Applied to every line before it is appended (known secrets -> "[redacted NAME]"); the text it
   * returns must still be the same JSON. Default: lines are written as they are.
   */
  redact?: (text: string) => string;
  /** The header written when the file is new or empty (default: a fresh one). */
  header?: SessionHeader;
}

/** An open, locked session file. Appends land in the order they are called. */
export interface Session {
  readonly path: string;
  readonly header: SessionHeader;
  /** The effective context now: latest compaction block + messages after it, failed turns removed, pairing repaired. A fresh copy each call. */
  effectiveContext(): EffectiveContext;
  /**
   * The effective context with every cleared tool result whole again (what compaction's ledger and
   * restored facts read, and its kept copies are written from). A fresh copy each call.
   */
  unclearedContext(): EffectiveContext;
  /** Appends a clearing entry: the results it names hold their stubs in the context from now on. */
  appendClearing(clearing: EntryFields<ClearingEntry>): Promise<ClearingEntry>;
  /** Appends an unclear entry: the clearing it names is taken back. */
  appendUnclear(unclear: EntryFields<UnclearEntry>): Promise<UnclearEntry>;
  /**
   * Entries in the active suffix (from the latest complete compaction entry on; a compaction whose
   * kept copies were cut off by a crash does not count), in file order, as read/appended.
   */
  activeEntries(): readonly SessionEntry[];
  /**
   * The user turns rewinds took out of `activeEntries` as the file was read, by the id of the entry
   * they follow (`""`: before the first): turn numbers count them still. Absent: none were.
   */
  rewoundTurns?(): RewoundTurns;
  appendMessage(message: Message): Promise<MessageEntry>;
  /**
   * Appends the compaction entry, then one message entry per kept message (copies), in order. Returns
   * them. Cleared results among the kept are written whole (the file keeps outputs, never stubs) and
   * the clearings in force for them are carried on the entry.
   */
  appendCompaction(
    record: CompactionRecord,
    kept: readonly Message[],
  ): Promise<{ compaction: CompactionEntry; copies: MessageEntry[] }>;
  /**
   * Marks the turn that began with the latest user message of the effective context as failed for
   * good (appends a turn-failed entry). No-op returning undefined if there is no such turn.
   */
  markLastTurnFailed(code: ErrorCode, error: string): Promise<TurnFailedEntry | undefined>;
  /** The compaction entry replay starts at (the one in effect), if any. */
  activeCompaction(): CompactionEntry | undefined;
  /** The pinned notes in force, oldest first. */
  pins(): PinnedNote[];
  /** Appends a pin entry: the note is in force from now on. */
  appendPin(text: string): Promise<PinEntry>;
  /** Appends an unpin entry for the pin entry `pinId`. */
  appendUnpin(pinId: string): Promise<UnpinEntry>;
  /**
   * Appends an uncompact entry undoing `compactionId` (the compaction in effect), then rereads the
   * active suffix backward from the file, now reaching back to the compaction before it.
   */
  appendUncompact(compactionId: string): Promise<UncompactEntry>;
  /** Appends a compaction-failed entry; replay ignores it. */
  appendCompactionFailed(
    trigger: CompactionTrigger,
    attempts: readonly CompactionAttemptRecord[],
  ): Promise<CompactionFailedEntry>;
  /** Appends a model entry: `model` ("provider/model") is in use from here on. */
  appendModel(model: string): Promise<ModelEntry>;
  /** Appends a sandbox entry: how the model's tools are confined from here on. */
  appendSandbox(record: SandboxRecord): Promise<SandboxEntry>;
  /** The model the session was last using (latest model entry or assistant answer in the active suffix). */
  recordedModel(): string | undefined;
  /** False until the first entry of a session opened with openNewSession is written (no file yet). */
  readonly hasFile: boolean;
  /** Records a context window learned from an overflow error (a `window` entry). */
  appendWindow(model: string, window: LearnedWindow): Promise<WindowEntry>;
  /**
   * The latest window learned for each "provider/model", across resume: compaction entries carry
   * the windows known when they were written, and window entries after them override.
   */
  learnedWindows(): Record<string, LearnedWindow>;
  /** Appends a checkpoint entry: what one tool call changed in the workspace (replay ignores it). */
  appendCheckpoint(checkpoint: EntryFields<CheckpointEntry>): Promise<CheckpointEntry>;
  /**
   * Appends a rewind entry; when it takes back the conversation, rereads the active suffix backward
   * from the file (it may now reach back past compactions the rewind took out).
   */
  appendRewind(rewind: EntryFields<RewindEntry>): Promise<RewindEntry>;
  /**
   * A session whose file does not exist yet starts creating and locking it (empty) in the
   * background, so the first append finds it ready; the caller goes on meanwhile. A failure surfaces
   * at that append. Closed with nothing written, the empty file is removed again. Absent, or doing
   * nothing, for a session that has its file.
   */
  reserve?(): void;
  /** Releases the lock; idempotent. */
  close(): Promise<void>;
}

/** An entry's own fields: what the caller gives, without the type, id and time the session adds. */
export type EntryFields<T extends SessionEntry> = Omit<T, "type" | "id" | "ts">;
