export {
  composeCompactionSummary,
  NO_SUMMARY_YET,
  PINNED_NOTES_HEADING,
  RESTORED_FACTS_HEADING,
} from "./compose-compaction-summary.js";
export { findLatestConversation } from "./find-latest-conversation.js";
export { openNewSession } from "./lazy-session.js";
export {
  type ListSessionsOptions,
  listSessions,
  type SessionListing,
  type SessionSummary,
} from "./list-sessions.js";
export { newSessionHeader, openSession } from "./open-session.js";
export { parseSessionLine } from "./parse-session-line.js";
export { pinsInForce } from "./pins-in-force.js";
export { readActiveSuffix } from "./read-active-suffix.js";
export { type CompactionHistoryEntry, readCompactionHistory } from "./read-compaction-history.js";
export { validateHeader } from "./read-session-header.js";
export { recordedModel } from "./recorded-model.js";
export { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
export {
  resolveSessionRef,
  type SessionRef,
  type SessionRefMatch,
  uniqueIdPrefixes,
} from "./resolve-session-ref.js";
export type { OpenSessionOptions, Session } from "./session.js";
export type {
  CompactionEntry,
  CompactionFailedEntry,
  MessageEntry,
  PinEntry,
  PinnedNote,
  SessionEntry,
  SessionHeader,
  SessionParent,
  SessionRelation,
  TurnFailedEntry,
  UncompactEntry,
  UnpinEntry,
} from "./session-entries.js";
export { SESSION_VERSION } from "./session-entries.js";
export { isSessionError, SessionError } from "./session-error.js";
export { SESSION_INDEX_FILE } from "./session-index.js";
export { findLatestSession, newSessionPath, sessionDirectory } from "./session-paths.js";
export {
  addCounts,
  readSessionUsage,
  readSessionUsageSync,
  type SessionUsage,
  sumSessionUsage,
  type TokenCounts,
} from "./session-usage.js";
