/**
 * panto's public API, listed by name: the program API (`createPanto`: sessions held in this
 * process, set up as the CLI sets up a run, reporting the `--json` events as `PantoEvent`s), the
 * agent, compaction's steps (spec v1), sessions, config, model clients and the provider-error
 * classifier. Importing it loads no vendor SDK: provider
 * adapters are imported on a model's first request. Fake provider servers for tests live at
 * `panto/simulator`.
 *
 * @example
 * ```ts
 * import { Agent, buildSystemPrompt, classifyProviderError, createDefaultTools, createModelClient, openSession } from "panto";
 *
 * const cwd = process.cwd();
 * const agent = new Agent({
 *   session: await openSession("session.jsonl", { cwd }),
 *   model: "anthropic/claude-sonnet-4-5",
 *   createClient: (id) => createModelClient(id, { env: process.env }),
 *   tools: createDefaultTools(),
 *   systemPrompt: await buildSystemPrompt({ cwd, projectRoot: cwd }),
 *   compactionPrompt: "Summarise the conversation so far.",
 *   keepVerbatimTokens: 20_000,
 *   approve: async () => "allow",
 *   onEvent: (event) => console.error(event.type),
 *   cwd,
 * });
 * const result = await agent.prompt("Fix the failing test");
 *
 * classifyProviderError({ status: 400, body: "prompt is too long: 219898 tokens > 200000 maximum" });
 * // → { code: "context_overflow", retryable: false, requestTokens: 219898, contextWindow: 200000 }
 * ```
 */

export type { AgentEvent, AgentOptions, ApprovalVerdict, PromptResult } from "./agent/index.js";
export { Agent, buildSystemPrompt } from "./agent/index.js";
export { createPanto, type Panto } from "./api/create-panto.js";
export type {
  PantoOptions,
  PermissionCallback,
  PermissionDecision,
  PermissionRequest,
  TurnOptions,
} from "./api/panto-options.js";
export type { PantoSession } from "./api/panto-session.js";
export { PantoSetupError } from "./api/panto-setup-error.js";
export type { RunResult } from "./api/run-result.js";
export {
  BASE_COMPACTION_PROMPT_PATH,
  buildCompactionRequest,
  type CompactionAttemptFailure,
  type CompactionEvent,
  type CompactionOutcome,
  type CompactionPreview,
  type CompactionPromptLayer,
  type CompactionPromptSource,
  type CompactionRequest,
  type CompactionRequestInput,
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  extractFacts,
  type Fact,
  groupTurns,
  type MessageSize,
  type PreviewCompactionInput,
  type PreviewTurn,
  planRetention,
  previewCompaction,
  type ResolvedCompactionPrompt,
  type RetentionOptions,
  type RetentionPlan,
  type RunCompactionInput,
  resolveCompactionPrompt,
  runCompaction,
  type SummariseFn,
  type SummariseWithFallbackInput,
  type SummaryResult,
  serializeTranscript,
  sizeTurns,
  summariseWithFallback,
} from "./compaction/index.js";
export {
  ConfigError,
  DEFAULT_KEEP_VERBATIM_TOKENS,
  findProjectRoot,
  type LoadedConfig,
  loadConfig,
  type PantoConfig,
  readCompactionPromptLayers,
  resolvePantoHome,
} from "./config/index.js";
export { parseConfigText } from "./config/parse-config-text.js";
export {
  type ApiKind,
  type AssistantMessage,
  type CompactionBlock,
  type CompactionRecord,
  type CompactionTrigger,
  type ContentBlock,
  type EffectiveContext,
  ERROR_CODES,
  type ErrorClassification,
  type ErrorCode,
  type ImageBlock,
  isPantoError,
  type Message,
  type ModelClient,
  type ModelRequest,
  PantoError,
  type RestoredFact,
  type SizedTurn,
  type SizeSource,
  type StopReason,
  type StreamEvent,
  type StreamOptions,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
  type ToolDefinition,
  type ToolResultBlock,
  type ToolResultMessage,
  type Turn,
  type Usage,
  type UserMessage,
} from "./core/index.js";
export type { PantoEvent, SessionUsage } from "./frontends/json/json-event-schema.js";
export type { AdapterOptions } from "./providers/adapter-options.js";
export { classifyProviderError, type ProviderFailure } from "./providers/classify-provider-error.js";
export { type CreateModelClientOptions, createModelClient } from "./providers/create-model-client.js";
export {
  type ModelSpec,
  type ProvidersConfig,
  parseModelId,
  resolveModelSpec,
} from "./providers/resolve-model-spec.js";
export {
  type CompactionEntry,
  type CompactionFailedEntry,
  type CompactionHistoryEntry,
  findLatestSession,
  isSessionError,
  type ListSessionsOptions,
  listSessions,
  type MessageEntry,
  type OpenSessionOptions,
  openSession,
  type PinEntry,
  type PinnedNote,
  parseSessionLine,
  type ReplayResult,
  readCompactionHistory,
  replayEntries,
  resolveSessionRef,
  SESSION_VERSION,
  type Session,
  type SessionEntry,
  SessionError,
  type SessionHeader,
  type SessionListing,
  type SessionRef,
  type SessionRefMatch,
  type SessionSummary,
  sessionDirectory,
  type TurnFailedEntry,
  type UncompactEntry,
  type UnpinEntry,
} from "./session/index.js";
export { createDefaultTools, runTool, type Tool, type ToolContext, type ToolOutput } from "./tools/index.js";
