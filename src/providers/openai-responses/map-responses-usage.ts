import type { ResponseUsage } from "openai/resources/responses/responses";
import type { Usage } from "../../core/index.js";

/**
 * Normalises Responses usage (DESIGN "Sizing"): `input_tokens` already counts cached tokens;
 * `output_tokens` includes hidden reasoning, which later prompts do not count as the visible output
 * does, so it is left out of the re-sent part. Missing usage stays undefined, never zeros.
 */
export function mapResponsesUsage(usage: ResponseUsage | null | undefined): Usage | undefined {
  if (usage === null || usage === undefined || typeof usage.input_tokens !== "number") return undefined;
  const outputTokens = usage.output_tokens ?? 0;
  const reasoning = usage.output_tokens_details?.reasoning_tokens;
  const cacheRead = usage.input_tokens_details?.cached_tokens;
  const cacheWrite = usage.input_tokens_details?.cache_write_tokens;
  return {
    promptTokens: usage.input_tokens,
    outputTokens,
    resentOutputTokens: Math.max(0, outputTokens - (reasoning ?? 0)),
    ...(typeof cacheRead === "number" ? { cacheReadTokens: cacheRead } : {}),
    ...(typeof cacheWrite === "number" ? { cacheWriteTokens: cacheWrite } : {}),
    ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}),
  };
}
