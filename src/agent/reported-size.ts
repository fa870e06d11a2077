import { estimateMessageTokens, estimateTokens } from "../compaction/index.js";
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
 * context) is passed over. Without usage: the estimate, scaled by the learned window's ratio if any.
 */
export function reportedRequestTokens(
  context: EffectiveContext,
  overheadTokens: number,
  window?: LearnedWindow,
): number {
  const estimates = context.messages.map(estimateMessageTokens);
  const summary = context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary);
  const before: number[] = [];
  let running = overheadTokens + summary;
  for (const estimate of estimates) {
    before.push(running);
    running += estimate;
  }
  for (let index = context.messages.length - 1; index >= 0; index--) {
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
  return Math.round(running * (window === undefined ? 1 : providerScale(window)));
}
