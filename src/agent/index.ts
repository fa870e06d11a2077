export { Agent } from "./agent.js";
export type { AgentEvent } from "./agent-events.js";
export type {
  AgentOptions,
  ApprovalVerdict,
  PromptContent,
  PromptOptions,
  PromptResult,
} from "./agent-options.js";
export { assistantText } from "./assistant-text.js";
export { buildSystemPrompt } from "./build-system-prompt.js";
export { failureHint } from "./failure-hint.js";
export { type RequestSize, requestSize } from "./reported-size.js";
export { summaryRequester } from "./summary-requester.js";
