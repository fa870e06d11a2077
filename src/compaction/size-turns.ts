import type { AssistantMessage, Message, SizedTurn, SizeSource, Turn, Usage } from "../core/index.js";
import { estimateMessageBreakdown } from "./estimate-tokens.js";

/** One message's size and where it came from. */
export interface MessageSize {
  tokens: number;
  source: SizeSource;
}

/**
 * A usage-derived size below a fifth of the local estimate cannot be right even for text the
 * estimate overrates most (prose, about 1.7x); it means usage from another context (a kept message
 * copied after a compaction still carries the usage of the longer context it was first sent in).
 */
const IMPLAUSIBLY_SMALL_RATIO = 5;

/**
 * Sizes every turn from provider usage where it is coherent, else from the local estimate
 * (DESIGN "Sizing"). A turn's source is "usage" only when every one of its messages was sized from
 * usage; otherwise it is "estimate" (its usage-sized parts still count at their exact size).
 */
export function sizeTurns(turns: readonly Turn[]): SizedTurn[] {
  const messages: Message[] = [];
  for (const turn of turns) for (const message of turn.messages) messages.push(message);
  const sizes = measureMessages(messages);
  const sized: SizedTurn[] = new Array(turns.length);
  let offset = 0;
  for (let turnIndex = 0; turnIndex < turns.length; turnIndex++) {
    const turn = turns[turnIndex] as Turn;
    let tokens = 0;
    let source: SizeSource = "usage";
    const end = offset + turn.messages.length;
    for (let index = offset; index < end; index++) {
      tokens += sizes.tokens[index] as number;
      if (sizes.fromUsage[index] === 0) source = "estimate";
    }
    offset = end;
    sized[turnIndex] = { start: turn.start, end: turn.end, messages: turn.messages, tokens, source };
  }
  return sized;
}

/**
 * Sizes each message. An assistant message with coherent usage costs R (its re-sent output); the
 * messages between two consecutive assistant messages with coherent usage from the same model share
 * P(next) - P(previous) - R(previous), in proportion to their local estimates. Everything else (no
 * usage, another model in between, a negative or implausibly small delta, material that straddles a
 * turn boundary) takes the local estimate, which errs large (spec rule 8).
 */
export function sizeMessages(messages: readonly Message[]): MessageSize[] {
  const sizes = measureMessages(messages);
  return messages.map((_, index) => ({
    tokens: sizes.tokens[index] as number,
    source: sizes.fromUsage[index] === 1 ? "usage" : "estimate",
  }));
}

/** Every message's size (index-aligned) and whether it came from usage (1) or the estimate (0). */
interface MessageSizes {
  tokens: Float64Array;
  fromUsage: Uint8Array;
}

/** {@link sizeMessages} into flat arrays: one pass of estimates, one of usage, few allocations. */
function measureMessages(messages: readonly Message[]): MessageSizes {
  const estimates = new Float64Array(messages.length);
  // Images vary most between providers and thinking is not re-sent in later requests, so neither
  // may make usage look implausibly small.
  const floors = new Float64Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const estimate = estimateMessageBreakdown(messages[index] as Message);
    estimates[index] = estimate.tokens;
    floors[index] = estimate.tokens - estimate.imageTokens - estimate.thinkingTokens;
  }
  const sizes: MessageSizes = { tokens: estimates.slice(), fromUsage: new Uint8Array(messages.length) };
  let previous: number | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== "assistant") continue;
    if (!hasUsableUsage(message)) {
      previous = undefined;
      continue;
    }
    const resent = message.usage.resentOutputTokens;
    if (isPlausible(resent, floors[index] ?? 0)) setSize(sizes, index, resent);
    if (previous !== undefined) attributeGap(messages, { estimates, floors, sizes }, previous, index);
    previous = index;
  }
  return sizes;
}

function setSize(sizes: MessageSizes, index: number, tokens: number): void {
  sizes.tokens[index] = tokens;
  sizes.fromUsage[index] = 1;
}

type AssistantWithUsage = AssistantMessage & { usage: Usage };

function hasUsableUsage(message: AssistantMessage): message is AssistantWithUsage {
  const usage = message.usage;
  if (usage === undefined) return false;
  if (message.stopReason === "error" || message.stopReason === "aborted") return false;
  return [usage.promptTokens, usage.outputTokens, usage.resentOutputTokens].every(
    (value) => Number.isFinite(value) && value >= 0,
  );
}

interface SizingState {
  estimates: Float64Array;
  floors: Float64Array;
  sizes: MessageSizes;
}

/** Splits the material added between assistant messages `from` and `to` over the messages between them. */
function attributeGap(messages: readonly Message[], state: SizingState, from: number, to: number): void {
  const before = messages[from] as AssistantWithUsage;
  const after = messages[to] as AssistantWithUsage;
  if (to - from < 2 || !sameModel(before, after)) return;
  // A user message after the first one in the gap would put the material into two turns.
  for (let index = from + 2; index < to; index++) if (messages[index]?.role === "user") return;
  const delta = after.usage.promptTokens - before.usage.promptTokens - before.usage.resentOutputTokens;
  if (!isPlausible(delta, sum(state.floors, from + 1, to))) return;
  const gapEstimate = sum(state.estimates, from + 1, to);
  let assigned = 0;
  for (let index = from + 1; index < to; index++) {
    const share =
      index === to - 1 ? delta - assigned : Math.round((delta * (state.estimates[index] ?? 0)) / gapEstimate);
    assigned += share;
    setSize(state.sizes, index, Math.max(0, share));
  }
}

function sameModel(a: AssistantMessage, b: AssistantMessage): boolean {
  return a.provider === b.provider && a.model === b.model && a.api === b.api;
}

function isPlausible(tokens: number, floor: number): boolean {
  return tokens > 0 && tokens * IMPLAUSIBLY_SMALL_RATIO >= floor;
}

function sum(values: Float64Array, from: number, to: number): number {
  let total = 0;
  for (let index = from; index < to; index++) total += values[index] ?? 0;
  return total;
}
