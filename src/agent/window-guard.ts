import {
  estimateContextTokens,
  estimateMessageTokens,
  estimateTokens,
  groupTurns,
} from "../compaction/index.js";
import type { EffectiveContext, LearnedWindow, ToolDefinition } from "../core/index.js";
import { PantoError } from "../core/index.js";
import { messageTooLarge } from "./message-too-large.js";

/**
 * How a learned context window bounds overflow recovery (issue: "know the window"). The window only
 * shapes a compaction that a rejection (or `/compact`) already started; it never starts one.
 *
 * Units: panto's local estimate errs large; the provider's count is the truth. When an overflow
 * stated both the request's size and the window, `requestTokens / estimatedTokens` converts one into
 * the other for this model; without it the estimate is taken as the provider's count.
 */

/** Part of the window kept free for the provider's tokenizer disagreeing with ours. */
export const WINDOW_MARGIN = 0.1;
/** Part of the window kept for the summary a compaction puts in front of the kept turns. */
export const SUMMARY_SHARE = 0.15;
/** The plausible range of provider tokens per estimated token (see `learnFromOverflow`). */
const MIN_SCALE = 0.4;
const MAX_SCALE = 2;
/** The summary allowance never needs more than this. */
export const SUMMARY_ALLOWANCE_CAP = 8000;

/** The parts of every request that compaction cannot shrink: the system prompt and the tool definitions. */
export function estimateOverheadTokens(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  return estimateTokens(systemPrompt) + (tools.length === 0 ? 0 : estimateTokens(JSON.stringify(tools)));
}

/** The local estimate of a whole request. */
export function estimateRequestTokens(overheadTokens: number, context: EffectiveContext): number {
  return overheadTokens + estimateContextTokens(context);
}

/** Provider tokens per estimated token for this model, from its latest overflow; 1 when unknown. */
export function providerScale(window: LearnedWindow): number {
  const { requestTokens, estimatedTokens } = window;
  if (requestTokens === undefined || estimatedTokens === undefined || estimatedTokens === 0) return 1;
  return requestTokens / estimatedTokens;
}

/** What the provider is expected to count for a request panto estimates at `estimatedTokens`. */
export function predictProviderTokens(window: LearnedWindow, estimatedTokens: number): number {
  return Math.ceil(estimatedTokens * providerScale(window));
}

/**
 * The window, less the margin, in the units retention sizes turns in. Those mix provider counts
 * (turns sized from usage) and local estimates; scaling down when the estimate undercounts, never
 * up, keeps the result safe for both.
 */
export function usableWindowTokens(window: LearnedWindow): number {
  return Math.floor((window.contextWindow * (1 - WINDOW_MARGIN)) / Math.max(1, providerScale(window)));
}

export function summaryAllowanceTokens(window: LearnedWindow): number {
  return Math.min(SUMMARY_ALLOWANCE_CAP, Math.ceil(usableWindowTokens(window) * SUMMARY_SHARE));
}

/**
 * The fixed overhead as the provider counts it, from the session's own usage: the earliest response
 * in the context whose reported prompt plausibly is the request panto estimates (overhead, summary
 * and the messages before it), with that prompt split in proportion to the estimates. The earliest
 * is used because its prompt is mostly overhead, so the split errs least. Undefined without usage.
 */
export function overheadFromUsage(context: EffectiveContext, overheadTokens: number): number | undefined {
  let prefix =
    overheadTokens + (context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary));
  for (const message of context.messages) {
    if (message.role === "assistant" && message.usage !== undefined && prefix > 0) {
      const failed = message.stopReason === "error" || message.stopReason === "aborted";
      const scale = message.usage.promptTokens / prefix;
      if (!failed && scale >= MIN_SCALE && scale <= MAX_SCALE) return Math.ceil(overheadTokens * scale);
    }
    prefix += estimateMessageTokens(message);
  }
  return undefined;
}

/**
 * The fixed overhead in the units `usableWindowTokens` and retention use (provider tokens when the
 * estimate overcounts, estimate units when it undercounts and the window is scaled down instead):
 * from the session's usage when there is some, else the estimate scaled by the learned window.
 */
export function overheadInWindowUnits(
  window: LearnedWindow,
  overheadTokens: number,
  context: EffectiveContext,
): number {
  const scale = providerScale(window);
  const fromUsage = overheadFromUsage(context, overheadTokens);
  if (fromUsage !== undefined) return Math.ceil(fromUsage / Math.max(1, scale));
  return Math.ceil(overheadTokens * Math.min(1, scale));
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
): number {
  if (window === undefined) return configured;
  const overhead = overheadInWindowUnits(window, overheadTokens, context);
  const room = usableWindowTokens(window) - overhead - summaryAllowanceTokens(window);
  return Math.max(0, Math.min(configured, room));
}

/**
 * The most one summary request may be (local estimate), given the summarising model's window. A
 * summary request is sized by the estimate alone, so the provider scale converts it both ways.
 */
export function summaryRequestLimit(window: LearnedWindow | undefined): number | undefined {
  if (window === undefined) return undefined;
  const usable = window.contextWindow * (1 - WINDOW_MARGIN);
  // The summary is written into the same window: leave it room.
  const room = usable - Math.min(SUMMARY_ALLOWANCE_CAP, usable * SUMMARY_SHARE);
  return Math.max(1, Math.floor(room / providerScale(window)));
}

/** The turn in flight's size by the local estimate (0 when there is none). */
export function inFlightEstimate(context: EffectiveContext): number {
  const inFlight = groupTurns(context.messages).at(-1);
  if (inFlight === undefined) return 0;
  return inFlight.messages.reduce((total, message) => total + estimateMessageTokens(message), 0);
}

/** Whether the context holds no turn but the one in flight (a summary may precede it). */
export function onlyTurnInFlight(context: EffectiveContext): boolean {
  return groupTurns(context.messages).length <= 1;
}

/** What the two checks against a learned window look at. */
export interface FitCheck {
  model: string;
  window: LearnedWindow | undefined;
  overheadTokens: number;
  context: EffectiveContext;
}

/**
 * Refuses at once, without a model call, when the learned window cannot hold even the fixed
 * overhead plus the turn in flight: no compaction could make the retry fit. When the overhead alone
 * fills the window the model is the problem; otherwise it is the message itself.
 */
export function inFlightMisfit(input: FitCheck): PantoError | undefined {
  const { window } = input;
  if (window === undefined || groupTurns(input.context.messages).length === 0) return undefined;
  // The session's own usage says best what the provider counts (the estimate overrates JSON tool
  // definitions, for one); the overflow's ratio comes next; without either, the estimate itself.
  const fromUsage = overheadFromUsage(input.context, input.overheadTokens);
  const scale =
    fromUsage !== undefined && input.overheadTokens > 0
      ? fromUsage / input.overheadTokens
      : providerScale(window);
  const overhead = Math.ceil(input.overheadTokens * scale);
  const turn = Math.ceil(inFlightEstimate(input.context) * scale);
  if (overhead + turn <= window.contextWindow) return undefined;
  if (overhead >= window.contextWindow) {
    const message =
      `panto's fixed overhead (system prompt and tool definitions) alone comes to about ${overhead} tokens, ` +
      `more than ${input.model}'s context window of ${window.contextWindow} tokens, so no summary was ` +
      "requested. Switch to a model with a larger window (/model); for a local server, raise its context size.";
    return new PantoError("context_overflow", message, {
      contextWindow: window.contextWindow,
      requestTokens: overhead + turn,
    });
  }
  return messageTooLarge({
    model: input.model,
    messageTokens: turn,
    overheadTokens: overhead,
    contextWindow: window.contextWindow,
    conversation: "untouched",
  });
}

/** Refuses the retry before it is sent when, even compacted, the request is expected not to fit. */
export function retryMisfit(input: FitCheck): PantoError | undefined {
  const { window } = input;
  if (window === undefined) return undefined;
  const predicted = predictProviderTokens(window, estimateRequestTokens(input.overheadTokens, input.context));
  if (predicted <= window.contextWindow) return undefined;
  const message =
    `even after compaction the request would be about ${predicted} tokens, more than ${input.model}'s ` +
    `context window of ${window.contextWindow} tokens, so it was not sent again. Run /compact with ` +
    "instructions for a shorter summary, or switch to a model with a larger window (/model).";
  return new PantoError("context_overflow", message, {
    contextWindow: window.contextWindow,
    requestTokens: predicted,
  });
}

/**
 * What an overflow error teaches about the window, or undefined when it stated no window. The
 * request's size is kept for scaling only when it is plausibly the count of the request panto
 * estimated: the estimate errs large, so the provider's count is expected between 0.4 and 2 times it.
 * A stated total that includes a large output reservation, or a replayed body with someone else's
 * numbers, falls outside and only teaches the window.
 */
export function learnFromOverflow(error: PantoError, estimatedTokens: number): LearnedWindow | undefined {
  if (error.code !== "context_overflow" || error.contextWindow === undefined) return undefined;
  const window: LearnedWindow = { contextWindow: error.contextWindow };
  const requestTokens = error.requestTokens;
  if (requestTokens === undefined || estimatedTokens <= 0) return window;
  const scale = requestTokens / estimatedTokens;
  return scale >= MIN_SCALE && scale <= MAX_SCALE
    ? { ...window, requestTokens, estimatedTokens }
    : { ...window, requestTokens };
}
