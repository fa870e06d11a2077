export type { ImportCounts } from "./build-import-entries.js";
export { ImportError } from "./import-error.js";
export type { ImportPlace, ImportReport } from "./import-session-file.js";
export { type ImportOutcome, importSessions } from "./import-sessions.js";
export type { ImportFormat } from "./import-types.js";
