import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  groupTurns,
} from "../compaction/index.js";
import type { EffectiveContext, LearnedWindow, PantoError, ToolDefinition } from "../core/index.js";

/**
 * How a learned context window shapes overflow recovery (issue: "know the window"). The window only
 * shapes a compaction that a rejection (or `/compact`) already started; it never starts one, and it
 * never refuses one: refusals rest on the provider's figures alone (`provider-refusals.ts`).
 *
 * Uncertain sizes have a direction (DESIGN.md). panto's estimate errs large for the tokenizers we
 * know, usage lags by a request, and some servers count very differently (no tool definitions,
 * another tokenizer). So every use of a size says which way it may err:
 * - shaping (retention, the keep budget) takes the size that keeps less: the upper bound, here
 *   `providerScale(window, "upper")`, never below 1;
 * - sending: whether a summary request goes out, and how large its chunks are, is decided by the
 *   provider's answer, not the estimate (`summary-fit.ts` in compaction, issue 33);
 * - refusing (no compaction, no retry, "message too large") and warning take the size that refuses
 *   or warns less, and only the provider's own numbers give that (`provider-figures.ts`);
 * - sizes shown to the user take the best guess, `providerScale(window, "shown")`.
 */

/** Part of the window kept free for the provider's tokenizer disagreeing with ours. */
export const WINDOW_MARGIN = 0.1;
/** Part of the window kept for the summary a compaction puts in front of the kept turns. */
export const SUMMARY_SHARE = 0.15;
/** A shown size is scaled by the learned ratio only within this range; outside it, by 1. */
const MIN_SHOWN_SCALE = 0.4;
const MAX_SHOWN_SCALE = 2;
/** The summary allowance never needs more than this. */
export const SUMMARY_ALLOWANCE_CAP = 8000;

/**
 * Which way a size derived from the local estimate may err: "upper" for shaping (at least 1, so an
 * estimate is never scaled down for it), "shown" for the best guess shown to the user.
 */
export type ScaleUse = "upper" | "shown";

/** The parts of every request that compaction cannot shrink: the system prompt and the tool definitions. */
export function estimateOverheadTokens(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  return estimateTokens(systemPrompt) + (tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools)));
}

/** The local estimate of a whole request. */
export function estimateRequestTokens(overheadTokens: number, context: EffectiveContext): number {
  return overheadTokens + estimateContextTokens(context);
}

/**
 * Provider tokens per estimated token for this model, from its latest overflow (the rejected
 * request's stated size over panto's estimate of it). "upper": never below 1 and never capped, so a
 * server that counts more than the estimate shrinks what is kept, and one that counts less never
 * lets more be kept. "shown": the ratio where it is plausible (a stated total with a large output
 * reservation is not), else 1.
 */
export function providerScale(window: LearnedWindow, use: ScaleUse): number {
  const { requestTokens, estimatedTokens } = window;
  if (requestTokens === undefined || estimatedTokens === undefined || !(estimatedTokens > 0)) return 1;
  const ratio = requestTokens / estimatedTokens;
  if (use === "upper") return Math.max(1, ratio);
  return ratio >= MIN_SHOWN_SCALE && ratio <= MAX_SHOWN_SCALE ? ratio : 1;
}

/**
 * The window, less the margin, in the units retention sizes turns in. Those mix provider counts
 * (turns sized from usage) and local estimates; scaling down when the estimate undercounts, never
 * up, keeps the result safe for both.
 */
export function usableWindowTokens(window: LearnedWindow): number {
  return Math.floor((window.contextWindow * (1 - WINDOW_MARGIN)) / providerScale(window, "upper"));
}

export function summaryAllowanceTokens(window: LearnedWindow): number {
  return Math.min(SUMMARY_ALLOWANCE_CAP, Math.ceil(usableWindowTokens(window) * SUMMARY_SHARE));
}

/**
 * An upper bound of the fixed overhead as the provider counts it, from the session's own usage: the
 * earliest successful response from the active model in the context, its reported prompt split in
 * proportion to the estimates of what it held (overhead, summary, the messages before it), and never
 * more than that whole prompt, which holds the overhead. The earliest is used because its prompt is
 * mostly overhead, so the split errs least. Undefined without such usage.
 */
export function overheadFromUsage(
  context: EffectiveContext,
  overheadTokens: number,
  model?: string,
  copiedMessages = 0,
): number | undefined {
  let prefix =
    overheadTokens + (context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary));
  for (const [index, message] of context.messages.entries()) {
    // A kept copy's usage is that of the longer context it was first answered in: no measure here.
    const copy = index < copiedMessages;
    if (!copy && message.role === "assistant" && message.usage !== undefined && prefix > 0) {
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const sameModel = model === undefined || `${message.provider}/${message.model}` === model;
      const prompt = message.usage.promptTokens;
      if (!failed && sameModel && prompt > 0)
        return Math.min(prompt, Math.ceil((overheadTokens * prompt) / prefix));
    }
    prefix += estimateMessageTokens(message);
  }
  return undefined;
}

/**
 * The fixed overhead in the units `usableWindowTokens` and retention use (provider tokens divided by
 * the upper scale), erring large: from the session's usage when there is some, else the estimate,
 * scaled down by the learned ratio only when that ratio says the provider counts less.
 */
export function overheadInWindowUnits(
  window: LearnedWindow,
  overheadTokens: number,
  context: EffectiveContext,
  model?: string,
  copiedMessages = 0,
): number {
  const upper = providerScale(window, "upper");
  const fromUsage = overheadFromUsage(context, overheadTokens, model, copiedMessages);
  if (fromUsage !== undefined) return Math.ceil(fromUsage / upper);
  return Math.ceil(overheadTokens * Math.min(1, providerScale(window, "shown")));
}

/**
 * The keep-verbatim budget (turn in flight included, as retention counts it) a compaction may use:
 * the configured one, or less when the learned window could not hold it next to the fixed overhead
 * and the summary's allowance with the margin, so the single retry fits whenever the turn in flight
 * does. Retention keeps the turn in flight whatever the budget.
 */
export function effectiveKeepBudget(
  configured: number,
  window: LearnedWindow | undefined,
  overheadTokens: number,
  context: EffectiveContext,
  model?: string,
  copiedMessages = 0,
): number {
  if (window === undefined) return configured;
  const overhead = overheadInWindowUnits(window, overheadTokens, context, model, copiedMessages);
  const room = usableWindowTokens(window) - overhead - summaryAllowanceTokens(window);
  return Math.max(0, Math.min(configured, room));
}

/** Whether the context holds no turn but the one in flight (a summary may precede it). */
export function onlyTurnInFlight(context: EffectiveContext): boolean {
  return groupTurns(context.messages).length <= 1;
}

/** What overflow recovery looks at: the active model, its learned window, the overhead, the context. */
export interface FitCheck {
  model: string;
  window: LearnedWindow | undefined;
  /** panto's estimate of the fixed overhead (system prompt, tool definitions). */
  overheadTokens: number;
  /** The most the fixed overhead could count by any provider (a byte bound, see provider-figures.ts). */
  overheadBound: number;
  context: EffectiveContext;
}

/**
 * What an overflow error teaches about the window, or undefined when it stated no window. The
 * rejected request's input size, when the body states it apart from any output reservation and it
 * can be the count of the request sent (`trustedInput`), is kept with panto's estimate of that
 * request, whatever their ratio: `providerScale` decides per use how far to trust it. Any other
 * stated size is kept without the estimate, so it scales nothing.
 */
export function learnFromOverflow(
  error: PantoError,
  estimatedTokens: number,
  trustedInput: number | undefined,
): LearnedWindow | undefined {
  if (error.code !== "context_overflow" || error.contextWindow === undefined) return undefined;
  const window: LearnedWindow = { contextWindow: error.contextWindow };
  if (trustedInput !== undefined && estimatedTokens > 0)
    return { ...window, requestTokens: trustedInput, estimatedTokens };
  // A size that cannot be this request's teaches no ratio; it is kept only as what the body said.
  const stated = error.inputTokens ?? error.requestTokens;
  return stated === undefined ? window : { ...window, requestTokens: stated };
}
