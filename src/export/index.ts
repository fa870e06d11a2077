export type { Redact } from "./clean-text.js";
export {
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportSessionOptions,
  type ExportSummary,
  exportSession,
} from "./export-session.js";
export { CUT_CHARS } from "./render-entries.js";
export { type CoreEntry, type EntryFields, readSessionLines, type SessionLine } from "./session-lines.js";
export { memorySink, streamSink, type TextSink } from "./text-sink.js";
