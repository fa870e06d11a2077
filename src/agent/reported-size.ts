import { estimateMessageTokens, estimateTokens, sizeMessages } from "../compaction/index.js";
import type { AssistantMessage, EffectiveContext, LearnedWindow } from "../core/index.js";
import { providerScale } from "./window-guard.js";

/** The plausible range of a provider's count per estimated token; outside it usage is from another context. */
const MIN_SCALE = 0.4;
const MAX_SCALE = 2;

/** The size of the next request, and whether a provider's usage went into it. */
export interface RequestSize {
  tokens: number;
  /** "usage": a reported prompt size plus what came after it; "estimate": the local estimate alone. */
  source: "usage" | "estimate";
}

export interface RequestSizeOptions {
  /**
   * false: the raw figures, so the size equals what the server reported (the status line): the
   * latest usage as it is plus the plain estimate of what came after it, else the plain estimate.
   * true: the size as the provider would count it (the compaction report, `/context`, JSON
   * `tokens_before`/`tokens_after`): usage from a failed request or implausible for the estimate of
   * what preceded it is passed over, what came after is scaled by that usage's ratio to the
   * estimate, and without such usage the session's own calibration, else the learned window's ratio.
   */
  calibrated: boolean;
  /**
   * How many leading messages are kept copies written after a compaction: their prompt sizes are
   * those of the longer context they were first sent in, so their usage is passed over.
   */
  copiedMessages?: number;
  /** The window learned for the model, whose ratio scales a calibrated estimate without usage. */
  window?: LearnedWindow | undefined;
}

/**
 * The size of the request `context` makes with `overheadTokens` of system prompt and tool
 * definitions: the latest usable usage-reported prompt size plus its re-sent output plus the
 * estimate of every message after it; without usable usage, the estimate of everything. When only
 * kept copies carry usage, a calibrated size keeps each message's usage-based size (the deltas
 * between copies stay true) and estimates the rest, calibrated by those same sizes.
 */
export function requestSize(
  context: EffectiveContext,
  overheadTokens: number,
  options: RequestSizeOptions,
): RequestSize {
  const estimates = context.messages.map(estimateMessageTokens);
  const summary = context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary);
  const before: number[] = [];
  let running = overheadTokens + summary;
  for (const estimate of estimates) {
    before.push(running);
    running += estimate;
  }
  for (let index = context.messages.length - 1; index >= (options.copiedMessages ?? 0); index--) {
    const message = context.messages[index];
    if (message?.role !== "assistant" || message.usage === undefined) continue;
    const prefix = before[index] ?? 0;
    const after = running - prefix - (estimates[index] ?? 0);
    const { promptTokens, resentOutputTokens } = message.usage;
    if (!options.calibrated) return { tokens: promptTokens + resentOutputTokens + after, source: "usage" };
    const scale = usageScale(message, promptTokens, prefix);
    if (scale === undefined) continue;
    const tokens = Math.round(promptTokens + Math.max(0, resentOutputTokens) + after * scale);
    return { tokens, source: "usage" };
  }
  if (!options.calibrated) return { tokens: running, source: "estimate" };
  const calibrated = calibratedSize(context, overheadTokens + summary);
  if (calibrated !== undefined) return { tokens: calibrated, source: "usage" };
  const { window } = options;
  return {
    tokens: Math.round(running * (window === undefined ? 1 : providerScale(window, "shown"))),
    source: "estimate",
  };
}

/**
 * The ratio of a message's reported prompt size to the estimate of what preceded it, or undefined
 * when that usage cannot calibrate: a failed or aborted request, or a ratio outside the plausible
 * range (a kept copy still carrying the usage of a longer, pre-compaction context).
 */
function usageScale(message: AssistantMessage, promptTokens: number, prefix: number): number | undefined {
  if (message.stopReason === "error" || message.stopReason === "aborted") return undefined;
  if (!(promptTokens > 0) || prefix <= 0) return undefined;
  const scale = promptTokens / prefix;
  return scale < MIN_SCALE || scale > MAX_SCALE ? undefined : scale;
}

/**
 * Every message at its usage-based size where it has one, the rest (and `fixedTokens`: overhead and
 * summary) at the estimate scaled by the ratio of those usage-based sizes to their estimates: the
 * session's own calibration. Undefined when no message is sized from usage or the ratio is implausible.
 */
function calibratedSize(context: EffectiveContext, fixedTokens: number): number | undefined {
  const sizes = sizeMessages(context.messages);
  let usage = 0;
  let usageEstimate = 0;
  let rest = fixedTokens;
  context.messages.forEach((message, index) => {
    const size = sizes[index];
    const estimate = estimateMessageTokens(message);
    if (size?.source === "usage" && estimate > 0) {
      usage += size.tokens;
      usageEstimate += estimate;
    } else rest += estimate;
  });
  if (usageEstimate === 0) return undefined;
  const scale = usage / usageEstimate;
  if (scale < MIN_SCALE || scale > MAX_SCALE) return undefined;
  return Math.round(usage + rest * scale);
}
