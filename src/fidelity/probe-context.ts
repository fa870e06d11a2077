import { estimateContextTokens } from "../compaction/estimate-context-tokens.js";
import { estimateTokens } from "../compaction/estimate-tokens.js";
import type { EffectiveContext, ToolDefinition } from "../core/index.js";

/** `context` exactly as the next request would carry it, with the probe as one final user message. */
export function probeContext(context: EffectiveContext, question: string): EffectiveContext {
  return {
    ...context,
    messages: [...context.messages, { role: "user", content: [{ type: "text", text: question }] }],
  };
}

/** The local estimate of one probe request: system prompt, tool definitions and context (probe included). */
export function estimateProbeTokens(
  systemPrompt: string,
  tools: readonly ToolDefinition[],
  context: EffectiveContext,
): number {
  return (
    estimateTokens(systemPrompt) + estimateTokens(JSON.stringify(tools)) + estimateContextTokens(context)
  );
}
