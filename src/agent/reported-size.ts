import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  sizeMessages,
} from "../compaction/index.js";
import type { EffectiveContext, LearnedWindow } from "../core/index.js";
import { providerScale } from "./window-guard.js";

/** The plausible range of a provider's count per estimated token; outside it usage is from another context. */
const MIN_SCALE = 0.4;
const MAX_SCALE = 2;

/** The size of the next request, and whether a provider's usage went into it. */
export interface RequestSize {
  tokens: number;
  /**
   * "usage": rests on the provider's numbers (a reported prompt size plus what came after it, or the
   * local estimate scaled by the session's own ratio of reported to estimated sizes); "estimate":
   * the local estimate alone (it errs large).
   */
  source: "usage" | "estimate";
  /**
   * The part of `tokens` the provider counted itself: the latest reported prompt size and its
   * re-sent output (less what clearings since took out), without the estimate of what came after;
   * absent without such usage. What a warning rests on (DESIGN: a warning takes the size that
   * warns less).
   */
  countedTokens?: number;
}

/**
 * How the next request's size is found, as every figure shown for "the context" takes it (the
 * status line, `/context`, the compaction reports, the preview, JSON `tokens_*`, ACP's
 * `usage_update`): usage from a failed request or implausible for the estimate of what preceded it
 * is passed over, what came after is scaled by that usage's ratio to the estimate, and without such
 * usage the session's own calibration, else `scale` (carried over a compaction), else the learned
 * window's ratio.
 */
export interface RequestSizeOptions {
  /**
   * How many leading messages are kept copies written after a compaction: their prompt sizes are
   * those of the longer context they were first sent in, so their usage is passed over.
   */
  copiedMessages?: number;
  /**
   * Provider tokens per estimated token, measured on an earlier request of the session (a
   * compaction records it): scales the estimate of a context no usage has measured yet, so a size
   * after a compaction is counted the way the size before it was.
   */
  scale?: number | undefined;
  /** The window learned for the model, whose ratio scales an estimate without usage or `scale`. */
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
    const { promptTokens, resentOutputTokens } = message.usage;
    // A failed or aborted request's usage may be partial; a prompt of 0 is no count at all.
    if (message.stopReason === "error" || message.stopReason === "aborted" || !(promptTokens > 0)) continue;
    const prefix = before[index] ?? 0;
    const after = running - prefix - (estimates[index] ?? 0);
    // The provider's count stands as it is; only what came after it is scaled, and by 1 when the
    // ratio to the estimate is implausible (a server counting far from panto's estimate).
    const scale = usageScale(promptTokens, prefix) ?? 1;
    const counted = promptTokens + Math.max(0, resentOutputTokens);
    const tokens = Math.round(counted + after * scale);
    return { tokens, source: "usage", countedTokens: counted };
  }
  const calibrated = calibratedSize(context, overheadTokens + summary);
  if (calibrated !== undefined) return { tokens: calibrated, source: "usage" };
  const { window, scale } = options;
  if (scale !== undefined && scale >= MIN_SCALE && scale <= MAX_SCALE)
    return { tokens: Math.round(running * scale), source: "usage" };
  return {
    tokens: Math.round(running * (window === undefined ? 1 : providerScale(window, "shown"))),
    source: "estimate",
  };
}

/**
 * The ratio of a reported prompt size to the estimate of what preceded it, or undefined when it is
 * outside the plausible range and so cannot calibrate the estimate.
 */
function usageScale(promptTokens: number, prefix: number): number | undefined {
  if (prefix <= 0) return undefined;
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

/**
 * Provider tokens per estimated token for the request `context` makes now: its size (above) over
 * the plain local estimate. Undefined when no provider number went into the size. What a compaction
 * records (`sizeScale`), so the context after it is sized the way the context before it was.
 */
export function requestScale(
  context: EffectiveContext,
  overheadTokens: number,
  options: RequestSizeOptions,
): number | undefined {
  const size = requestSize(context, overheadTokens, options);
  const estimate = overheadTokens + estimateContextTokens(context);
  if (size.source !== "usage" || !(estimate > 0)) return undefined;
  const scale = Math.round((size.tokens / estimate) * 10_000) / 10_000;
  return scale >= MIN_SCALE && scale <= MAX_SCALE ? scale : undefined;
}
