import type { EffectiveContext, ToolCallBlock, ToolResultBlock } from "../../core/index.js";
import { formatToolCall, toolResultText, visible } from "../format-text.js";

/**
 * `/last`: the most recent tool result in the context, whole, under the call that produced it
 * (the transcript shows one summary line of each). Control characters are made visible.
 */
export function describeLastToolOutput(context: EffectiveContext): string {
  const found = lastToolResult(context);
  if (found === undefined) return "No tool has run in this context yet.";
  const { result, call } = found;
  const heading = call === undefined ? result.toolName : formatToolCall(call);
  const status = result.isError ? " (failed)" : "";
  return `● ${heading}${status}\n${visible(toolResultText(result))}`;
}

function lastToolResult(
  context: EffectiveContext,
): { result: ToolResultBlock; call: ToolCallBlock | undefined } | undefined {
  const messages = context.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== "tool") continue;
    const result = message.content.at(-1);
    if (result === undefined) continue;
    const call = messages
      .slice(0, index)
      .flatMap((earlier) => (earlier.role === "assistant" ? earlier.content : []))
      .find((block): block is ToolCallBlock => block.type === "tool-call" && block.id === result.toolCallId);
    return { result, call };
  }
  return undefined;
}
