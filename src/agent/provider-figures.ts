import { groupTurns, messageTokensUpperBound, textTokensUpperBound } from "../compaction/index.js";
import type {
  AssistantMessage,
  EffectiveContext,
  Message,
  PantoError,
  ToolDefinition,
} from "../core/index.js";
import type { SessionEntry } from "../session/index.js";

/**
 * What the provider's own numbers say about a rejected request (DESIGN "Uncertain sizes have a
 * direction"): the only ground on which panto may refuse to compact, refuse to retry, or call a
 * message too large. panto's estimate never enters here; where these figures leave a question open,
 * recovery does what the spec says (compact, retry once) and lets the provider judge.
 */

/** The latest request the provider accepted on the context as it still is, with what came after it. */
export interface AcceptedRequest {
  /** Its prompt as the provider counted it (cached tokens included). */
  promptTokens: number;
  /** The part of its answer that is sent again as input. */
  resentOutputTokens: number;
  /** Messages after its answer that precede the turn in flight (none when it lies inside that turn). */
  between: Message[];
  /** Every message after its answer (`between` and the turn in flight, or the rest of that turn). */
  after: Message[];
}

/**
 * Entry types that leave the context before them as it was (a `sandbox` entry records how a run
 * confined its tools, written with each run's first prompt). Any other one may have changed it.
 */
// A checkpoint records what a tool call changed on disk, not in the context: without it here every
// tool round would hide the provider's figures behind it.
const NEUTRAL_ENTRIES: ReadonlySet<string> = new Set([
  "window",
  "model",
  "compaction-failed",
  "sandbox",
  "checkpoint",
]);

/**
 * The latest answer from `model` whose reported prompt was counted on the same compaction block and
 * the same messages as the context holds now: found walking back from the end of the active entries,
 * skipping failed turns, and stopping at anything that changed what precedes it (a compaction, an
 * undo, a pin, a kept copy carrying an older context's usage, an entry this code does not know).
 */
export function latestAcceptedRequest(
  entries: readonly SessionEntry[],
  model: string,
): AcceptedRequest | undefined {
  let skipTo: string | undefined;
  let turnStartSeen = false;
  const between: Message[] = [];
  const after: Message[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index] as SessionEntry;
    if (skipTo !== undefined) {
      if (entry.id === skipTo) skipTo = undefined;
      continue;
    }
    if (entry.type === "turn-failed") {
      skipTo = entry.firstEntryId;
      continue;
    }
    if (entry.type !== "message") {
      if (NEUTRAL_ENTRIES.has(entry.type)) continue;
      return undefined;
    }
    if (entry.keptBy !== undefined) return undefined;
    const { message } = entry;
    if (message.role === "assistant" && countsAsAccepted(message, model)) {
      const usage = message.usage;
      return {
        promptTokens: usage.promptTokens,
        resentOutputTokens: Math.max(0, usage.resentOutputTokens),
        between: turnStartSeen ? between.reverse() : [],
        after: after.reverse(),
      };
    }
    after.push(message);
    if (turnStartSeen) between.push(message);
    else if (message.role === "user") turnStartSeen = true;
  }
  return undefined;
}

function countsAsAccepted(
  message: AssistantMessage,
  model: string,
): message is AssistantMessage & { usage: NonNullable<AssistantMessage["usage"]> } {
  if (message.usage === undefined || !(message.usage.promptTokens > 0)) return false;
  if (message.stopReason === "error" || message.stopReason === "aborted") return false;
  return `${message.provider}/${message.model}` === model;
}

/** What compaction can never remove from a request, at least, by the provider's count. */
export interface UnshrinkableFloor {
  /** The turn in flight plus the fixed overhead (system prompt, tool definitions), at least. */
  tokens: number;
  /** The rejected request's input as the provider counted it. */
  requestTokens: number;
  /** The most everything compaction can remove could count (a byte bound). */
  removableTokens: number;
  /**
   * The accepted request the turn's own size was worked out from, and that size: the rejected
   * request minus the accepted one, its answer and what came between (about the turn in flight).
   */
  accepted?: AcceptedRequest;
  turnTokens?: number;
}

/**
 * A floor for the turn in flight plus the fixed overhead, from the rejected request's input size:
 * the larger of (a) that size minus a byte bound of everything before the turn in flight (summary
 * and earlier messages), and (b) that size minus the latest accepted prompt, its re-sent answer and
 * a byte bound of what came between it and the turn in flight (the spec's "adjacent usage records",
 * valid because the accepted request was counted on the same prefix). Undefined when no trusted
 * input size was stated (see `trustedInputTokens`).
 */
export function unshrinkableFloor(
  inputTokens: number | undefined,
  context: EffectiveContext,
  accepted: AcceptedRequest | undefined,
): UnshrinkableFloor | undefined {
  if (inputTokens === undefined) return undefined;
  const removableTokens = removableUpperBound(context);
  const floor: UnshrinkableFloor = {
    tokens: Math.max(0, inputTokens - removableTokens),
    requestTokens: inputTokens,
    removableTokens,
  };
  if (accepted === undefined) return floor;
  const previous = accepted.promptTokens + accepted.resentOutputTokens + sumUpperBounds(accepted.between);
  const turnTokens = Math.max(0, inputTokens - previous);
  return { ...floor, tokens: Math.max(floor.tokens, turnTokens), accepted, turnTokens };
}

/** The most the summary block and every message before the turn in flight could count. */
export function removableUpperBound(context: EffectiveContext): number {
  const inFlight = groupTurns(context.messages).at(-1);
  const before = context.messages.slice(0, inFlight?.start ?? context.messages.length);
  const summary = context.compaction === undefined ? 0 : textTokensUpperBound(context.compaction.summary);
  return summary + sumUpperBounds(before);
}

/** The most the turn in flight could count. */
export function inFlightUpperBound(context: EffectiveContext): number {
  const inFlight = groupTurns(context.messages).at(-1);
  return inFlight === undefined ? 0 : sumUpperBounds(inFlight.messages);
}

function sumUpperBounds(messages: readonly Message[]): number {
  return messages.reduce((total, message) => total + messageTokensUpperBound(message), 0);
}

/**
 * What a provider may add around the system prompt and tool definitions it is sent (Anthropic's
 * tool-use preamble, a chat template's tool section), at most.
 */
const PROVIDER_PREAMBLE_BOUND = 4096;

/** The most the fixed overhead (system prompt, tool definitions) could count, from its bytes. */
export function overheadUpperBound(systemPrompt: string, tools: readonly ToolDefinition[]): number {
  return (
    PROVIDER_PREAMBLE_BOUND +
    textTokensUpperBound(systemPrompt) +
    (tools.length === 0 ? 0 : textTokensUpperBound(JSON.stringify(tools)))
  );
}

/** Tokens a re-tokenised answer may differ by from the output count its provider reported. */
const RETOKENISE_SLACK = 64;

/**
 * The rejected request's input as the provider stated it, when it can be the count of the request
 * panto sent: no more than that request's byte bound and, when an earlier request on the same
 * context was accepted, between that request's prompt and its prompt plus its answer plus a byte
 * bound of everything added since. A figure outside belongs to another request (a proxy's, a
 * replayed body's), or the fixed overhead changed since (tools added between runs): either way it
 * is no evidence about this request, and recovery goes on as if no size were stated.
 */
export function trustedInputTokens(
  error: PantoError,
  overheadBound: number,
  context: EffectiveContext,
  accepted: AcceptedRequest | undefined,
): number | undefined {
  const stated = error.inputTokens;
  if (stated === undefined) return undefined;
  const ceiling = overheadBound + removableUpperBound(context) + inFlightUpperBound(context);
  if (stated > ceiling) return undefined;
  if (accepted === undefined) return stated;
  const low = accepted.promptTokens;
  const high = low + accepted.resentOutputTokens + sumUpperBounds(accepted.after) + RETOKENISE_SLACK;
  return stated >= low && stated <= high ? stated : undefined;
}
