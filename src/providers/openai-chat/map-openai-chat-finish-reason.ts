import type { StopReason } from "../../core/index.js";

/**
 * Maps a Chat Completions finish_reason onto panto's set. Some compatible servers say "stop" even
 * when the answer is tool calls, so tool calls decide unless the output was cut off. A
 * `model_context_window_exceeded` finish is an overflow; the stream reader raises it before this.
 */
export function mapOpenAIChatFinishReason(
  reason: string | null | undefined,
  hasToolCalls: boolean,
): StopReason {
  if (reason === "length") return "length";
  if (reason === "content_filter") return "content-filter";
  if (hasToolCalls || reason === "tool_calls" || reason === "function_call") return "tool-use";
  return "stop";
}
