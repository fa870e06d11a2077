export {
  composeCompactionSummary,
  NO_SUMMARY_YET,
  PINNED_NOTES_HEADING,
  RESTORED_FACTS_HEADING,
} from "./compose-compaction-summary.js";
export {
  type ListSessionsOptions,
  listSessions,
  type SessionListing,
  type SessionSummary,
} from "./list-sessions.js";
export { openSession } from "./open-session.js";
export { parseSessionLine } from "./parse-session-line.js";
export { readActiveSuffix } from "./read-active-suffix.js";
export { type CompactionHistoryEntry, readCompactionHistory } from "./read-compaction-history.js";
export { validateHeader } from "./read-session-header.js";
export { MISSING_RESULT_TEXT } from "./repair-tool-pairing.js";
export { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
export {
  resolveSessionRef,
  type SessionRef,
  type SessionRefMatch,
  uniqueIdPrefixes,
} from "./resolve-session-ref.js";
export type { OpenSessionOptions, Session } from "./session.js";
export type {
  CompactionAttemptRecord,
  CompactionEntry,
  CompactionFailedEntry,
  EntryBase,
  MessageEntry,
  PinEntry,
  PinnedNote,
  SessionEntry,
  SessionHeader,
  TurnFailedEntry,
  UncompactEntry,
  UnpinEntry,
  WindowEntry,
} from "./session-entries.js";
export { SESSION_VERSION } from "./session-entries.js";
export { isSessionError, SessionError } from "./session-error.js";
export { SESSION_INDEX_FILE } from "./session-index.js";
export { findLatestSession, newSessionPath, sessionDirectory } from "./session-paths.js";
