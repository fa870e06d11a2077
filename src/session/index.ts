export { type ClearingSavings, ClearingSavingsCounter, readClearingSavings } from "./clearing-savings.js";
export { type ClearingInForce, clearedResults, clearingsInForce, stubCleared } from "./clearings-in-force.js";
export {
  blockParts,
  type CompactionBlockParts,
  composeCompactionSummary,
  ledgerLines,
  NO_SUMMARY_YET,
  PINNED_NOTES_HEADING,
  RESTORED_FACTS_HEADING,
  recallPointer,
  TODO_LIST_HEADING,
  todoLines,
} from "./compose-compaction-summary.js";
export { effectiveNumbering } from "./effective-numbering.js";
export { findChildSessions } from "./find-child-sessions.js";
export { findLatestConversation } from "./find-latest-conversation.js";
export { type ForkedSession, type ForkSessionOptions, forkSession } from "./fork-session.js";
export { openNewSession, openReservedSession } from "./lazy-session.js";
export {
  type ListSessionsOptions,
  listSessions,
  type SessionListing,
  type SessionSummary,
} from "./list-sessions.js";
export { newSessionHeader, openSession } from "./open-session.js";
export { parseSessionLine } from "./parse-session-line.js";
export { pinsInForce } from "./pins-in-force.js";
export { type RewoundTurns, readActiveSuffix } from "./read-active-suffix.js";
export { type CompactionHistoryEntry, readCompactionHistory } from "./read-compaction-history.js";
export { validateHeader } from "./read-session-header.js";
export { readSessionSnapshot, type SessionSnapshot } from "./read-session-snapshot.js";
export { recordedModel } from "./recorded-model.js";
export { type RemovedSession, removeSession } from "./remove-session.js";
export { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
export {
  resolveSessionRef,
  type SessionRef,
  type SessionRefMatch,
  uniqueIdPrefixes,
} from "./resolve-session-ref.js";
export {
  type RewoundRange,
  rewindsConversation,
  rewoundMask,
  rewoundRanges,
  withoutRewound,
} from "./rewound-ranges.js";
export type { EntryFields, OpenSessionOptions, Session } from "./session.js";
export type {
  CarriedClearing,
  CheckpointEntry,
  ClearedResult,
  ClearingEntry,
  CompactionEntry,
  CompactionFailedEntry,
  FileChange,
  FileMode,
  FileVersion,
  MessageEntry,
  NoteEntry,
  PinEntry,
  PinnedNote,
  RewindEntry,
  RewindFileOutcome,
  RewindOutcome,
  RewindScope,
  SessionEntry,
  SessionHeader,
  SessionParent,
  SessionRelation,
  TurnFailedEntry,
  UnclearEntry,
  UncompactEntry,
  UncoveredPath,
  UncoveredReason,
  UnpinEntry,
} from "./session-entries.js";
export { ENTRY_TYPES, entryHoldsImage, newEntryId, SESSION_VERSION } from "./session-entries.js";
export { isSessionError, SessionError } from "./session-error.js";
export { SESSION_INDEX_FILE } from "./session-index.js";
export {
  type EntryShape,
  entryShape,
  foldEntries,
  type ModelTurn,
  SessionModel,
  type SessionView,
  type TurnStatus,
} from "./session-model.js";
export {
  findLatestSession,
  imagesFolder,
  newSessionPath,
  projectSlug,
  sessionDirectory,
  tasksFolder,
} from "./session-paths.js";
export {
  addCounts,
  readSessionUsage,
  type SessionUsage,
  sumSessionUsage,
  type TokenCounts,
} from "./session-usage.js";
export {
  type EffectiveTurnNumbers,
  effectiveTurnNumbers,
  isTurnStart,
  type TurnStart,
  turnNumbers,
  turnStarts,
  turnsBefore,
} from "./turn-numbers.js";
