import { estimateMessageTokens, estimateTokens, sizeMessages } from "../compaction/index.js";
import type { EffectiveContext, LearnedWindow } from "../core/index.js";
import { providerScale } from "./window-guard.js";

/** The plausible range of a provider's count per estimated token; outside it usage is from another context. */
const MIN_SCALE = 0.4;
const MAX_SCALE = 2;

/**
 * The size of the request this context makes, as the provider counts it (what users read: the
 * compaction report, `/context`, JSON `tokens_before`/`tokens_after`): the latest usage-reported
 * prompt size plus its re-sent output plus the estimate of what came after it, scaled by that same
 * usage's ratio to the estimate (the session's calibration). Usage whose prompt count does not fit
 * the estimate of what preceded it (a kept copy still carrying the usage of a longer, pre-compaction
 * context) is passed over, as is the usage of the first `copiedMessages` messages: kept copies
 * written after a compaction, whose prompt sizes are those of the longer context they were first
 * sent in. When only such copies carry usage, each message keeps its usage-based size (the deltas
 * between copies stay true) and the rest is the estimate calibrated by those same sizes. Without
 * usage: the estimate, scaled by the learned window's ratio if any.
 */
export function reportedRequestTokens(
  context: EffectiveContext,
  overheadTokens: number,
  window?: LearnedWindow,
  copiedMessages = 0,
): number {
  const estimates = context.messages.map(estimateMessageTokens);
  const summary = context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary);
  const before: number[] = [];
  let running = overheadTokens + summary;
  for (const estimate of estimates) {
    before.push(running);
    running += estimate;
  }
  for (let index = context.messages.length - 1; index >= copiedMessages; index--) {
    const message = context.messages[index];
    if (message?.role !== "assistant" || message.usage === undefined) continue;
    if (message.stopReason === "error" || message.stopReason === "aborted") continue;
    const { promptTokens, resentOutputTokens } = message.usage;
    const prefix = before[index] ?? 0;
    if (!(promptTokens > 0) || prefix <= 0) continue;
    const scale = promptTokens / prefix;
    if (scale < MIN_SCALE || scale > MAX_SCALE) continue;
    const after = running - prefix - (estimates[index] ?? 0);
    return Math.round(promptTokens + Math.max(0, resentOutputTokens) + after * scale);
  }
  const calibrated = calibratedSize(context, overheadTokens + summary);
  if (calibrated !== undefined) return calibrated;
  return Math.round(running * (window === undefined ? 1 : providerScale(window)));
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
