import type { Usage } from "../../core/index.js";
import { optional } from "../../core/index.js";

/** Usage figures as Anthropic reports them, gathered from message_start and message_delta. */
export interface AnthropicUsageFigures {
  input?: number;
  output?: number;
  cacheWrite?: number;
  /** The part of cacheWrite written for one-hour breakpoints. */
  longCacheWrite?: number;
  cacheRead?: number;
  thinking?: number;
}

/** The usage object of message_start, message_delta or a whole message; every field may be absent or null. */
export interface RawAnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  /** The cache writes split by lifetime (the five-minute part is the rest). */
  cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null;
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/**
 * Folds one usage report into the running figures. message_delta figures are cumulative, so a
 * later number replaces an earlier one; a missing or null number keeps what was known.
 */
export function mergeAnthropicUsage(
  figures: AnthropicUsageFigures,
  raw: RawAnthropicUsage | null | undefined,
): AnthropicUsageFigures {
  if (raw === null || raw === undefined) return figures;
  const pick = (value: number | null | undefined, known: number | undefined): number | undefined =>
    typeof value === "number" ? value : known;
  return dropUndefined({
    input: pick(raw.input_tokens, figures.input),
    output: pick(raw.output_tokens, figures.output),
    cacheWrite: pick(raw.cache_creation_input_tokens, figures.cacheWrite),
    longCacheWrite: pick(raw.cache_creation?.ephemeral_1h_input_tokens, figures.longCacheWrite),
    cacheRead: pick(raw.cache_read_input_tokens, figures.cacheRead),
    thinking: pick(raw.output_tokens_details?.thinking_tokens, figures.thinking),
  });
}

/**
 * Normalises per DESIGN "Sizing": the prompt size is input + cache writes + cache reads (Anthropic
 * counts cached tokens apart from input_tokens). Undefined unless both input and output were reported.
 */
export function normalizeAnthropicUsage(figures: AnthropicUsageFigures): Usage | undefined {
  if (figures.input === undefined || figures.output === undefined) return undefined;
  const promptTokens = figures.input + (figures.cacheWrite ?? 0) + (figures.cacheRead ?? 0);
  // Earlier turns' thinking is stripped from the context, so it is not re-sent.
  const resentOutputTokens = Math.max(0, figures.output - (figures.thinking ?? 0));
  return {
    promptTokens,
    outputTokens: figures.output,
    resentOutputTokens,
    ...optional("cacheReadTokens", figures.cacheRead),
    ...optional("cacheWriteTokens", figures.cacheWrite),
    // Only a one-hour part there is: most requests write none, and most usage never says.
    ...optional("longCacheWriteTokens", figures.longCacheWrite || undefined),
    ...optional("reasoningTokens", figures.thinking),
  };
}

function dropUndefined(
  figures: { [K in keyof AnthropicUsageFigures]-?: number | undefined },
): AnthropicUsageFigures {
  const result: AnthropicUsageFigures = {};
  for (const [key, value] of Object.entries(figures)) {
    if (value !== undefined) result[key as keyof AnthropicUsageFigures] = value;
  }
  return result;
}
