export { openSession } from "./open-session.js";
export { parseSessionLine } from "./parse-session-line.js";
export { readActiveSuffix } from "./read-active-suffix.js";
export { validateHeader } from "./read-session-header.js";
export { MISSING_RESULT_TEXT } from "./repair-tool-pairing.js";
export { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
export type { OpenSessionOptions, Session } from "./session.js";
export type {
  CompactionEntry,
  EntryBase,
  MessageEntry,
  SessionEntry,
  SessionHeader,
  TurnFailedEntry,
} from "./session-entries.js";
export { SESSION_VERSION } from "./session-entries.js";
export { isSessionError, SessionError } from "./session-error.js";
export { findLatestSession, newSessionPath, sessionDirectory } from "./session-paths.js";
