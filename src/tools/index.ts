export {
  type BackgroundTaskEvent,
  type BackgroundTaskInfo,
  BackgroundTasks,
  describeEnding as describeTaskEnding,
  MAX_RUNNING_TASKS,
  type TaskEnding,
} from "./background-tasks.js";
export {
  createBashTool,
  DEFAULT_BASH_TIMEOUT_MS,
  MAX_BASH_OUTPUT_CHARS,
  MAX_BASH_TIMEOUT_MS,
} from "./bash-tool.js";
export { createDefaultTools } from "./create-default-tools.js";
export { defineBuiltInTool } from "./define-built-in-tool.js";
export { defineTool, type ToolSpec } from "./define-tool.js";
export { applyEdit, createEditTool } from "./edit-tool.js";
export type { FileAccess } from "./file-access.js";
export { type FileChange, fileChange, firstChangedLine } from "./file-change.js";
export { createGlobTool, MAX_GLOB_RESULTS } from "./glob-tool.js";
export { createGrepTool, DEFAULT_GREP_RESULTS, MAX_GREP_FILE_BYTES, MAX_GREP_RESULTS } from "./grep-tool.js";
export { createLsTool, MAX_LS_ENTRIES } from "./ls-tool.js";
export { previewFileChange } from "./preview-file-change.js";
export { createReadTool, DEFAULT_READ_LIMIT, MAX_READ_CHARS } from "./read-tool.js";
export { DEFAULT_RECALL_HITS, MAX_RECALL_HITS, recallSchema } from "./recall-schema.js";
export { type RunToolOptions, runTool, TOOL_DEADLINE_MS } from "./run-tool.js";
export { sandboxRefusalOf } from "./sandbox-refusal-of.js";
export { MAX_TODO_ITEMS, MAX_TODO_TEXT_CHARS, todoSchema } from "./todo-schema.js";
export type { Tool, ToolContext, ToolKind, ToolOutput } from "./tool.js";
export { ToolError } from "./tool-error.js";
export { displayPath, resolveToolPath } from "./tool-paths.js";
export {
  createWebFetchTool,
  MAX_WEB_FETCH_BYTES,
  MAX_WEB_FETCH_CHARS,
  WEB_FETCH_TIMEOUT_MS,
  type WebFetchOptions,
} from "./web-fetch-tool.js";
export { createWriteTool } from "./write-tool.js";
