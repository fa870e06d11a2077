import type { StopReason } from "../../core/index.js";

/**
 * Maps Anthropic's stop_reason onto panto's set. `model_context_window_exceeded` is not a stop
 * reason but an overflow; the stream reader raises it before calling this.
 */
export function mapAnthropicStopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case "max_tokens":
      return "length";
    case "tool_use":
      return "tool-use";
    case "refusal":
      return "content-filter";
    default:
      // end_turn, stop_sequence, pause_turn, or none reported.
      return "stop";
  }
}
