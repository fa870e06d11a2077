export { type BashRunOutcome, bashRunOutcome } from "./bash-run-outcome.js";
export type * from "./compaction-record.js";
export { triggerName } from "./compaction-record.js";
export type * from "./content.js";
export type * from "./context.js";
export * from "./error-codes.js";
export { formatCount } from "./format-count.js";
export {
  base64Bytes,
  cachedImageInfo,
  IMAGE_EXTENSIONS,
  IMAGE_MEDIA_TYPES,
  type ImageInfo,
  type ImageTokenFormula,
  imageBlockInfo,
  imagePlaceholder,
  imageTokens,
  readImageInfo,
} from "./image-info.js";
export type * from "./learned-window.js";
export { describeFileError, isPathProblem, makeFolder, PathProblem } from "./make-folder.js";
export type * from "./messages.js";
export { MISSING_RESULT_TEXT, missingToolResult } from "./missing-tool-result.js";
export type * from "./model-client.js";
export { optional } from "./optional.js";
export * from "./panto-error.js";
export { pathKind } from "./path-kind.js";
export { plainCallId } from "./plain-call-id.js";
export { DEFAULT_SANDBOX_MODE, SANDBOX_MODES, type SandboxMode, type SandboxRecord } from "./sandbox-mode.js";
export { type FlaggedTodoItem, TODO_STATUSES, type TodoItem, type TodoStatus } from "./todo-item.js";
export type * from "./turn.js";
export { NOT_RUN_OPENINGS, wasNotRun } from "./unrun-tool-call.js";
export type * from "./usage.js";
