import type { Usage } from "../../core/index.js";
import { optional } from "../../core/index.js";

/** The usage object of a chat completion (or its last chunk), with fields compatible servers add. */
export interface RawOpenAIChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
  /** DeepSeek reports cache hits here instead of prompt_tokens_details. */
  prompt_cache_hit_tokens?: number | null;
}

/**
 * Normalises per DESIGN "Sizing": prompt_tokens already includes cached tokens; hidden reasoning
 * is part of completion_tokens but is not sent back, so it is not re-sent output. Undefined unless
 * both prompt and completion counts were reported.
 */
export function normalizeOpenAIChatUsage(raw: RawOpenAIChatUsage | null | undefined): Usage | undefined {
  if (typeof raw?.prompt_tokens !== "number" || typeof raw.completion_tokens !== "number") return undefined;
  const reasoning = numberOrUndefined(raw.completion_tokens_details?.reasoning_tokens);
  const cacheRead =
    numberOrUndefined(raw.prompt_tokens_details?.cached_tokens) ??
    numberOrUndefined(raw.prompt_cache_hit_tokens);
  const cacheWrite = numberOrUndefined(raw.prompt_tokens_details?.cache_write_tokens);
  return {
    promptTokens: raw.prompt_tokens,
    outputTokens: raw.completion_tokens,
    resentOutputTokens: Math.max(0, raw.completion_tokens - (reasoning ?? 0)),
    ...optional("cacheReadTokens", cacheRead),
    ...optional("cacheWriteTokens", cacheWrite),
    ...optional("reasoningTokens", reasoning),
  };
}

function numberOrUndefined(value: number | null | undefined): number | undefined {
  return typeof value === "number" ? value : undefined;
}
