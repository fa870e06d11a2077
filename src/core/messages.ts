import type { ImageBlock, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultBlock } from "./content.js";
import type { ErrorCode } from "./error-codes.js";
import type { Usage } from "./usage.js";

export interface UserMessage {
  role: "user";
  content: Array<TextBlock | ImageBlock>;
}

/** Why the model stopped. `error` and `aborted` only appear on messages kept for the record. */
export type StopReason = "stop" | "length" | "tool-use" | "content-filter" | "error" | "aborted";

export interface AssistantMessage {
  role: "assistant";
  content: Array<TextBlock | ThinkingBlock | ToolCallBlock>;
  /** Provider name as the user wrote it in the model id, e.g. "anthropic" or a custom provider from config. */
  provider: string;
  /** Wire protocol that produced it. */
  api: ApiKind;
  model: string;
  /** Undefined when the provider reported no usage (never zeros). */
  usage?: Usage;
  stopReason: StopReason;
  /** Set when stopReason is "error". */
  errorCode?: ErrorCode;
  errorMessage?: string;
}

/** The results of one or more tool calls of the assistant message before it. */
export interface ToolResultMessage {
  role: "tool";
  content: ToolResultBlock[];
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export type ApiKind = "anthropic-messages" | "openai-chat" | "openai-responses" | "google-gemini";
