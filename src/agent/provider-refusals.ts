import type { LearnedWindow, PantoError, SummaryRequestUsage } from "../core/index.js";
import { PantoError as Failure, optional } from "../core/index.js";
import { messageTooLarge } from "./message-too-large.js";
import {
  type AcceptedRequest,
  inFlightUpperBound,
  removableUpperBound,
  trustedInputTokens,
  type UnshrinkableFloor,
  unshrinkableFloor,
} from "./provider-figures.js";
import { type FitCheck, onlyTurnInFlight } from "./window-guard.js";

/**
 * The three places overflow recovery may stop short of the spec's "compact, retry once": before a
 * compaction, before the retry, and after the retry failed. Each refuses only on the provider's own
 * figures (a lower bound of what cannot shrink, against the window the provider stated), and its
 * error names those figures. Where they leave it open, nothing here refuses: the caller compacts and
 * retries, and the provider judges.
 */

/** The window an overflow stated, else the one learned for the model from an earlier overflow. */
export function statedWindow(overflow: PantoError, learned: LearnedWindow | undefined): number | undefined {
  return overflow.contextWindow ?? learned?.contextWindow;
}

/**
 * Refuses before any summary request when the provider's figures show that the turn in flight plus
 * the fixed overhead alone exceed the window. (A context holding nothing older than the turn in
 * flight is left to compaction, which finds nothing to summarise without a model call, and then to
 * `refuseNothingRemovable`.)
 */
export function refuseBeforeCompaction(
  check: FitCheck,
  overflow: PantoError,
  accepted: AcceptedRequest | undefined,
): Failure | undefined {
  if (onlyTurnInFlight(check.context)) return undefined;
  const window = statedWindow(overflow, check.window);
  const floor = floorOf(check, overflow, accepted);
  if (floor === undefined || window === undefined || floor.tokens <= window) return undefined;
  return tooLargeFromFloor(check.model, floor, window, overflow);
}

/** The floor of what compaction cannot remove from the request `error` rejected, on trusted figures. */
export function floorOf(
  check: FitCheck,
  error: PantoError,
  accepted: AcceptedRequest | undefined,
): UnshrinkableFloor | undefined {
  const input = trustedInputTokens(error, check.overheadBound, check.context, accepted);
  return unshrinkableFloor(input, check.context, accepted);
}

/**
 * The rejected request held only the fixed overhead, any summary and the turn in flight. When the
 * provider's count minus a byte bound of the summary and the turn still exceeds the window, the
 * overhead alone is too large (the model, not the message, is the problem); otherwise the message is.
 */
export function refuseNothingRemovable(check: FitCheck, overflow: PantoError): Failure {
  const window = statedWindow(overflow, check.window);
  const requestTokens = trustedInputTokens(overflow, check.overheadBound, check.context, undefined);
  if (requestTokens !== undefined && window !== undefined) {
    const overheadFloor =
      requestTokens - removableUpperBound(check.context) - inFlightUpperBound(check.context);
    if (overheadFloor > window) return overheadTooLarge(check.model, overheadFloor, requestTokens, window);
  }
  return messageTooLarge(
    {
      model: check.model,
      ...optional("messageTokens", requestTokens),
      evidence: { type: "nothing-removable", ...optional("requestTokens", requestTokens) },
      ...optional("contextWindow", window),
      conversation: "untouched",
    },
    overflow,
  );
}

function overheadTooLarge(model: string, overhead: number, requestTokens: number, window: number): Failure {
  const message =
    `panto's fixed overhead (system prompt and tool definitions) alone comes to at least ${overhead} tokens ` +
    `by the server's count (it counted ${requestTokens} for a request holding only that and your message), ` +
    `more than ${model}'s context window of ${window} tokens, so no summary was requested. Switch to a model ` +
    "with a larger window (/model); for a local server, raise its context size.";
  return new Failure("context_overflow", message, { contextWindow: window, requestTokens });
}

function tooLargeFromFloor(
  model: string,
  floor: UnshrinkableFloor,
  window: number,
  cause: PantoError,
): Failure {
  const evidence =
    floor.accepted === undefined || floor.turnTokens === undefined
      ? {
          type: "removable" as const,
          requestTokens: floor.requestTokens,
          removableTokens: floor.removableTokens,
        }
      : {
          type: "previous-request" as const,
          requestTokens: floor.requestTokens,
          acceptedTokens: floor.accepted.promptTokens,
          answerTokens: floor.accepted.resentOutputTokens,
          turnTokens: floor.turnTokens,
        };
  return messageTooLarge(
    { model, messageTokens: floor.tokens, evidence, contextWindow: window, conversation: "untouched" },
    cause,
  );
}

/**
 * Refuses to send the retry when the provider's figures show that even the compacted request cannot
 * fit: the floor of the turn in flight and the overhead, plus the summary as the active model itself
 * counted it when it wrote it (a summary written by another model is not counted: its tokenizer may
 * differ).
 */
export function refuseRetry(
  model: string,
  floor: UnshrinkableFloor | undefined,
  window: number | undefined,
  summaryUsage: readonly SummaryRequestUsage[] | undefined,
): Failure | undefined {
  if (floor === undefined || window === undefined) return undefined;
  const summary = summaryUsage?.filter((usage) => usage.model === model).at(-1)?.outputTokens ?? 0;
  const predicted = floor.tokens + summary;
  if (predicted <= window) return undefined;
  const message =
    `even after compaction the request would be at least ${predicted} tokens by the server's count (your ` +
    `message with what its turn brought in and panto's fixed overhead at least ${floor.tokens}, from the ` +
    `${floor.requestTokens} tokens it counted for the rejected request; the summary ${summary} as ${model} ` +
    `counted it), more than ${model}'s context window of ${window} tokens, so it was not sent again. Run ` +
    "/compact with instructions for a shorter summary, or switch to a model with a larger window (/model).";
  return new Failure("context_overflow", message, { contextWindow: window, requestTokens: predicted });
}

/**
 * After the retry overflowed too: the message is too large on its own when only the summary was left
 * beside it, or when the retry's own figures show the turn and the overhead exceed the window. The
 * caller then undoes the compaction; otherwise the provider's error stands as it is.
 */
export function tooLargeAfterRetry(check: FitCheck, retryError: PantoError): Failure | undefined {
  const window = statedWindow(retryError, check.window);
  const floor = floorOf(check, retryError, undefined);
  const overWindow = floor !== undefined && window !== undefined && floor.tokens > window;
  if (!overWindow && !onlyTurnInFlight(check.context)) return undefined;
  const requestTokens = floor?.requestTokens;
  return messageTooLarge(
    {
      model: check.model,
      ...optional("messageTokens", overWindow ? floor?.tokens : requestTokens),
      evidence: { type: "retry-rejected", ...optional("requestTokens", requestTokens) },
      ...optional("contextWindow", window),
      conversation: "compaction-undone",
    },
    retryError,
  );
}
