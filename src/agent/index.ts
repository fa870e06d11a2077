export type { AgentOptions, ApprovalVerdict, PromptOptions, PromptResult } from "./agent.js";
export { Agent, assistantText } from "./agent.js";
export type { AgentEvent } from "./agent-events.js";
export { buildSystemPrompt } from "./build-system-prompt.js";
export { failureHint } from "./failure-hint.js";
