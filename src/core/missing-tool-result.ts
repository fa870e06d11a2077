import type { ToolCallBlock, ToolResultBlock } from "./content.js";

/** The text of the result that stands in for a tool call whose real result was never recorded. */
export const MISSING_RESULT_TEXT =
  "No result was recorded for this tool call (the session ended before it finished).";

/**
 * The error result that answers `call` when its real result is missing, so tool calls and results
 * still pair up. The session's replay repairs a history with it (the owner of pairing); an adapter
 * uses it only as a last guard for a context that did not come through a session.
 */
export function missingToolResult(call: Pick<ToolCallBlock, "id" | "name">): ToolResultBlock {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    isError: true,
  };
}
