/**
 * panto's public API. Importing it loads no vendor SDK: provider adapters are imported on a model's
 * first request. Fake provider servers for tests live at `panto/simulator`.
 */

export type { AgentEvent, AgentOptions, ApprovalVerdict, PromptResult } from "./agent/index.js";
export { Agent, buildSystemPrompt } from "./agent/index.js";
export * from "./compaction/index.js";
export {
  ConfigError,
  DEFAULT_KEEP_VERBATIM_TOKENS,
  findProjectRoot,
  type LoadedConfig,
  loadConfig,
  type PantoConfig,
  parseConfigText,
  readCompactionPromptLayers,
  resolvePantoHome,
} from "./config/index.js";
export * from "./core/index.js";
export type { AdapterOptions } from "./providers/adapter-options.js";
export { classifyProviderError, type ProviderFailure } from "./providers/classify-provider-error.js";
export { type CreateModelClientOptions, createModelClient } from "./providers/create-model-client.js";
export {
  type ModelSpec,
  type ProvidersConfig,
  parseModelId,
  resolveModelSpec,
} from "./providers/resolve-model-spec.js";
export * from "./session/index.js";
export { createDefaultTools, runTool, type Tool, type ToolContext, type ToolOutput } from "./tools/index.js";
