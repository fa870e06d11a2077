export { Agent } from "./agent.js";
export type { AgentEvent } from "./agent-events.js";
export type {
  AgentOptions,
  ApprovalRequest,
  ApprovalVerdict,
  PromptContent,
  PromptOptions,
  PromptResult,
  RuleVerdict,
  ToolRestriction,
} from "./agent-options.js";
export { assistantText } from "./assistant-text.js";
export { buildSystemPrompt, instructionFilesIn } from "./build-system-prompt.js";
export type { PendingCompaction, PreparedCompaction } from "./compaction-preparation.js";
export { draftHandoff, type HandoffDeps, type HandoffDraft, handoffSource } from "./draft-handoff.js";
export { failureHint } from "./failure-hint.js";
export { type RequestSize, requestSize } from "./reported-size.js";
export { summaryRequester } from "./summary-requester.js";
