import type { AssistantMessage, Message, SizedTurn, SizeSource, Turn, Usage } from "../core/index.js";
import { estimateFloorUpperBound } from "./estimate-bounds.js";
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

/**
 * {@link sizeMessages} into flat arrays: one pass over usage, few allocations. A message's estimate
 * (the per-character scan of its text) is worked out only where the result depends on it: for a
 * message that ends up estimated, for the proportional split of a gap of several messages, and for
 * a plausibility check that a cheap upper bound of the estimate cannot settle. Usage that is at
 * least a fifth of the bound is at least a fifth of the estimate, so the outcome is the same as
 * with every estimate worked out first.
 */
function measureMessages(messages: readonly Message[]): MessageSizes {
  const state = sizingState(messages);
  let previous: number | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message?.role !== "assistant") continue;
    if (!hasUsableUsage(message)) {
      previous = undefined;
      continue;
    }
    const resent = message.usage.resentOutputTokens;
    if (isPlausible(state, resent, index, index + 1)) setSize(state, index, resent);
    if (previous !== undefined) attributeGap(state, previous, index);
    previous = index;
  }
  // Every message not sized from usage takes its estimate.
  for (let index = 0; index < messages.length; index++) {
    if (state.fromUsage[index] === 0) state.tokens[index] = estimateAt(state, index);
  }
  return { tokens: state.tokens, fromUsage: state.fromUsage };
}

/**
 * Sizes found so far, with each message's estimate, floor (the estimate without images and
 * thinking, which vary most between providers and are not re-sent, so they may not make usage
 * look implausibly small) and floor bound worked out on first use; NaN marks "not yet". A plain
 * object rather than a class instance: optimised code that depends on a class's field layout is
 * thrown away whenever a collection finds no instance alive, which is after every compaction.
 */
interface SizingState extends MessageSizes {
  messages: readonly Message[];
  estimates: Float64Array;
  floors: Float64Array;
  floorBounds: Float64Array;
}

function sizingState(messages: readonly Message[]): SizingState {
  return {
    messages,
    tokens: new Float64Array(messages.length),
    fromUsage: new Uint8Array(messages.length),
    estimates: new Float64Array(messages.length).fill(Number.NaN),
    floors: new Float64Array(messages.length).fill(Number.NaN),
    floorBounds: new Float64Array(messages.length).fill(Number.NaN),
  };
}

function setSize(state: SizingState, index: number, tokens: number): void {
  state.tokens[index] = tokens;
  state.fromUsage[index] = 1;
}

/** Whether `tokens` can be the size of messages `from` to `to` (exclusive) together. */
function isPlausible(state: SizingState, tokens: number, from: number, to: number): boolean {
  if (!(tokens > 0)) return false;
  let bound = 0;
  for (let index = from; index < to; index++) bound += floorBoundAt(state, index);
  if (tokens * IMPLAUSIBLY_SMALL_RATIO >= bound) return true;
  let floor = 0;
  for (let index = from; index < to; index++) floor += floorAt(state, index);
  return tokens * IMPLAUSIBLY_SMALL_RATIO >= floor;
}

function estimateAt(state: SizingState, index: number): number {
  measure(state, index);
  return state.estimates[index] as number;
}

function floorAt(state: SizingState, index: number): number {
  measure(state, index);
  return state.floors[index] as number;
}

function floorBoundAt(state: SizingState, index: number): number {
  let bound = state.floorBounds[index] as number;
  if (Number.isNaN(bound)) {
    bound = estimateFloorUpperBound(state.messages[index] as Message);
    state.floorBounds[index] = bound;
  }
  return bound;
}

function measure(state: SizingState, index: number): void {
  if (!Number.isNaN(state.estimates[index] as number)) return;
  const estimate = estimateMessageBreakdown(state.messages[index] as Message);
  state.estimates[index] = estimate.tokens;
  state.floors[index] = estimate.tokens - estimate.imageTokens - estimate.thinkingTokens;
}

type AssistantWithUsage = AssistantMessage & { usage: Usage };

function hasUsableUsage(message: AssistantMessage): message is AssistantWithUsage {
  const usage = message.usage;
  if (usage === undefined) return false;
  if (message.stopReason === "error" || message.stopReason === "aborted") return false;
  return isCount(usage.promptTokens) && isCount(usage.outputTokens) && isCount(usage.resentOutputTokens);
}

function isCount(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}

/** Splits the material added between assistant messages `from` and `to` over the messages between them. */
function attributeGap(state: SizingState, from: number, to: number): void {
  const messages = state.messages;
  const before = messages[from] as AssistantWithUsage;
  const after = messages[to] as AssistantWithUsage;
  if (to - from < 2 || !sameModel(before, after)) return;
  // A user message after the first one in the gap would put the material into two turns.
  for (let index = from + 2; index < to; index++) if (messages[index]?.role === "user") return;
  const delta = after.usage.promptTokens - before.usage.promptTokens - before.usage.resentOutputTokens;
  if (!isPlausible(state, delta, from + 1, to)) return;
  // The last message takes what is left, so a gap of one message needs no estimate at all.
  let gapEstimate = 0;
  if (to - from > 2) for (let index = from + 1; index < to; index++) gapEstimate += estimateAt(state, index);
  let assigned = 0;
  for (let index = from + 1; index < to; index++) {
    const share =
      index === to - 1 ? delta - assigned : Math.round((delta * estimateAt(state, index)) / gapEstimate);
    assigned += share;
    setSize(state, index, Math.max(0, share));
  }
}

function sameModel(a: AssistantMessage, b: AssistantMessage): boolean {
  return a.provider === b.provider && a.model === b.model && a.api === b.api;
}
