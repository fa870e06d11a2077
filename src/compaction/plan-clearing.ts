import type { EffectiveContext, Message, ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { clearingStub } from "./clearing-stub.js";
import { estimateMessageTokens, estimateTokens } from "./estimate-tokens.js";
import { TODO_TOOL } from "./todo-list.js";

/** Config `clearing` with its defaults applied. */
export interface ClearingSettings {
  enabled: boolean;
  /** Undefined: half a known window, else `DEFAULT_TRIGGER_TOKENS`. */
  triggerTokens?: number;
  keepRecent: number;
  minReclaimTokens: number;
  excludeTools: readonly string[];
  cacheTtlSeconds: number;
}

export const DEFAULT_TRIGGER_TOKENS = 100_000;

export const DEFAULT_CLEARING: ClearingSettings = {
  enabled: true,
  keepRecent: 5,
  minReclaimTokens: 20_000,
  excludeTools: [],
  cacheTtlSeconds: 300,
};

/** What the decision looks at, all of it read from the session (so it holds across processes). */
export interface ClearingInput {
  /** The effective context the next request would carry (clearings in force already applied). */
  context: EffectiveContext;
  /** Tool call ids whose results are cleared already. */
  cleared: ReadonlySet<string>;
  /** The prompt size the provider reported for the latest request, if it reported one. */
  latestPromptTokens?: number;
  /** The model's known context window, if any (learned, reported, configured or published). */
  window?: number;
  /** When the session's latest request was answered (ms since the epoch), from its recorded times. */
  lastRequestAt?: number;
  now: number;
  /** After `/unclear`: no clearing until the provider reports a prompt at least this large. */
  pausedBelowTokens?: number;
  /**
   * How many requests the cache has stayed warm for, on average, between the pauses longer than it
   * lives in this session so far (from its recorded times); absent while there was no such pause.
   */
  warmRunRequests?: number;
  /**
   * The latest turn has ended, and the question is about the request that starts the next one: no
   * result of the context is then in flight (the new prompt will be the turn in flight).
   */
  turnEnded?: boolean;
  settings: ClearingSettings;
}

/** One result to clear: which, how large, and the line that replaces it. */
export interface PlannedClear {
  toolCallId: string;
  toolName: string;
  /** The result's size (panto's estimate, which errs large). */
  tokens: number;
  stub: string;
}

/** The cost model's figures for a batch, in input-token equivalents at Anthropic's prices. */
export interface ClearingCost {
  /** What clearing now costs on top of not clearing: the rewritten suffix written instead of read. */
  rewriteCost: number;
  /** What each later request saves while the cache is warm (reads of the reclaimed tokens). */
  savedPerRequest: number;
  /** Requests after which the batch has paid for itself by cache reads alone (0 when the cache is cold). */
  breakEvenRequests: number;
}

export type ClearingPlan =
  | {
      type: "clear";
      reason: "trigger" | "cold-cache";
      results: PlannedClear[];
      /** Tokens the batch takes out of the context (sizes less their stubs). */
      reclaimTokens: number;
      cost: ClearingCost;
    }
  | {
      type: "keep";
      reason: "disabled" | "paused" | "below-trigger" | "below-min-reclaim" | "cache-cheaper";
    };

/*
 * The cost model (Anthropic's prompt cache; other providers' caches are cheaper to break, so what
 * holds here holds there). Per input token: an uncached read costs 1x, a cache write 1.25x, a cache
 * read 0.1x. A request reads its prompt from the cache up to the first byte that changed and writes
 * everything after it. Clearing a result changes the prompt from that result on, so:
 *
 * - warm cache: the next request writes the suffix S from the first cleared result (1.25x) where it
 *   would have read it (0.1x): a one-off 1.15 x S. Every later request then reads R fewer tokens
 *   (0.1 x R each), and a compaction, which re-reads the whole context at 1x to summarise it and
 *   rewrites what it keeps, comes R tokens later. Hence: clear rarely (only past the trigger, where
 *   the context is large enough that a compaction is in sight) and in bulk (only when R is at least
 *   `min_reclaim_tokens`). Once the suffix from the oldest cleared result is rewritten anyway,
 *   clearing every eligible result after it costs nothing more, so one batch takes them all.
 * - cold cache (no request for longer than the cache lives): the next request writes the whole
 *   prompt at 1.25x whatever happens, so clearing costs nothing extra and saves 1.25 x R at once:
 *   clear at the next request without waiting for the trigger (`min_reclaim_tokens` still applies,
 *   as a clearing still costs the model some context it may need).
 * - hence, past the trigger with a warm cache, a batch that needs more requests to pay for itself
 *   than the cache stays warm for in this session (its recorded pauses say how long that is) costs
 *   more than it saves: the next cold cache clears it for nothing. It waits for that, unless a
 *   known window is near (85%), where not clearing means a compaction.
 * - settling: the prompt through the latest cleared result no longer changes (later clearings stub
 *   only results after it), so Anthropic's adapter caches it for an hour (written at 2x instead of
 *   1.25x; see `EffectiveContext.settledToolCallIds`): a pause of five minutes to an hour then
 *   rewrites only what follows it. "Cold" above means the five-minute cache, and every clearing,
 *   cold or warm, pays the hour's premium (0.75x) on the stretch it newly settles.
 * Measured in the context benchmark (200 turns, one pause in seven longer than five minutes):
 * clearing at the trigger regardless cost 11.4% less than v1 alone, waiting so about 24% less, and
 * with the settled prefix cached for the hour 38% less (35.8% against v1 once its summary requests
 * were no longer written to the cache, which made v1 itself 3.4% cheaper).
 */
const CACHE_WRITE = 1.25;
const CACHE_WRITE_HOUR = 2;
const CACHE_READ = 0.1;

/**
 * Which old tool results to clear before the next request, if any (issue 34). Never cleared: the
 * `keepRecent` most recent clearable results (excluded tools' results do not count), the turn in
 * flight (from the latest user message on), excluded tools' results (`todo`'s always: the task list
 * is read from the session, and its answer is what the model last saw of it), results already cleared, and
 * a result whose call id occurs twice in the context (it could not be named without ambiguity).
 */
export function planClearing(input: ClearingInput): ClearingPlan {
  const due = clearingDue(input);
  if (due.type === "keep") return due;
  const cold = due.reason === "cold-cache";
  const { settings } = input;
  const candidates = clearCandidates(input);
  const reclaimTokens = candidates.reduce(
    (total, candidate) => total + candidate.tokens - estimateTokens(candidate.stub),
    0,
  );
  if (candidates.length === 0 || reclaimTokens < settings.minReclaimTokens || reclaimTokens <= 0)
    return { type: "keep", reason: "below-min-reclaim" };
  const cost = clearingCost(input.context, candidates, reclaimTokens, cold);
  if (!cold && waitForColdCache(input, cost)) return { type: "keep", reason: "cache-cheaper" };
  return { type: "clear", reason: cold ? "cold-cache" : "trigger", results: candidates, reclaimTokens, cost };
}

/** Past this share of a known window a clearing never waits: the next turns may meet the wall. */
export const NEAR_WALL = 0.85;

/**
 * Whether a clearing past the trigger is cheaper left to the next cold cache: the session's own
 * history says its cache goes cold (a pause longer than it lives) sooner than the batch would pay
 * for its rewrite, and a known window is not near (a compaction, dearer than any rewrite, is not in
 * sight). With no such pause on record, or no window known, it clears as the trigger says.
 */
function waitForColdCache(input: ClearingInput, cost: ClearingCost): boolean {
  const { warmRunRequests, window, latestPromptTokens } = input;
  if (warmRunRequests === undefined || window === undefined) return false;
  if ((latestPromptTokens ?? 0) >= NEAR_WALL * window) return false;
  return cost.breakEvenRequests > warmRunRequests;
}

/**
 * Whether a clearing may happen now, before looking at the context: enabled, not paused, and past
 * the trigger or with a cold cache. What `planClearing` checks first; callers may ask it alone to
 * avoid building the context for nothing.
 */
export function clearingDue(
  input: Omit<ClearingInput, "context" | "cleared">,
): { type: "due"; reason: "trigger" | "cold-cache" } | Extract<ClearingPlan, { type: "keep" }> {
  const { settings } = input;
  if (!settings.enabled) return { type: "keep", reason: "disabled" };
  const reported = input.latestPromptTokens ?? 0;
  if (input.pausedBelowTokens !== undefined && reported < input.pausedBelowTokens)
    return { type: "keep", reason: "paused" };
  const cold =
    input.lastRequestAt !== undefined && input.now - input.lastRequestAt > settings.cacheTtlSeconds * 1000;
  const trigger = settings.triggerTokens ?? defaultTrigger(input.window);
  if (!cold && !(reported > trigger)) return { type: "keep", reason: "below-trigger" };
  return { type: "due", reason: cold ? "cold-cache" : "trigger" };
}

function defaultTrigger(window: number | undefined): number {
  return window === undefined ? DEFAULT_TRIGGER_TOKENS : Math.floor(window / 2);
}

interface Located {
  result: ToolResultBlock;
  messageIndex: number;
}

/** The results to clear, oldest first: everything eligible, in one batch (see the cost model). */
function clearCandidates(input: ClearingInput): PlannedClear[] {
  const { context, settings, cleared } = input;
  const excluded = new Set([TODO_TOOL, ...settings.excludeTools]);
  const results: Located[] = [];
  const calls = new Map<string, ToolCallBlock>();
  const seen = new Map<string, number>();
  context.messages.forEach((message, messageIndex) => {
    for (const block of message.content) {
      if (block.type === "tool-call") calls.set(block.id, block);
      if (block.type !== "tool-result") continue;
      seen.set(block.toolCallId, (seen.get(block.toolCallId) ?? 0) + 1);
      if (!excluded.has(block.toolName)) results.push({ result: block, messageIndex });
    }
  });
  const inFlight =
    input.turnEnded === true ? -1 : context.messages.findLastIndex((message) => message.role === "user");
  const old = results.slice(0, Math.max(0, results.length - settings.keepRecent));
  const planned: PlannedClear[] = [];
  for (const { result, messageIndex } of old) {
    if (inFlight >= 0 && messageIndex > inFlight) continue;
    if (cleared.has(result.toolCallId) || seen.get(result.toolCallId) !== 1) continue;
    const tokens = estimateMessageTokens({ role: "tool", content: [result] });
    const stub = clearingStub(result, calls.get(result.toolCallId), tokens);
    if (tokens <= estimateTokens(stub)) continue;
    planned.push({ toolCallId: result.toolCallId, toolName: result.toolName, tokens, stub });
  }
  return planned;
}

/** The cost model's figures for clearing `planned` (oldest first; estimates, in input-token units). */
function clearingCost(
  context: EffectiveContext,
  planned: readonly PlannedClear[],
  reclaimTokens: number,
  cold: boolean,
): ClearingCost {
  const holding = (clear: PlannedClear | undefined) =>
    context.messages.findIndex((message) =>
      message.content.some((block) => block.type === "tool-result" && block.toolCallId === clear?.toolCallId),
    );
  const start = Math.max(0, holding(planned[0]));
  const tokensOf = (messages: readonly Message[]) =>
    messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
  const rewritten = Math.max(0, tokensOf(context.messages.slice(start)) - reclaimTokens);
  // The prompt through the latest result cleared becomes the settled prefix, written for the hour.
  const settled = Math.max(
    0,
    tokensOf(context.messages.slice(start, holding(planned.at(-1)) + 1)) - reclaimTokens,
  );
  const settleCost = (CACHE_WRITE_HOUR - CACHE_WRITE) * settled;
  const rewriteCost = Math.round(settleCost + (cold ? 0 : (CACHE_WRITE - CACHE_READ) * rewritten));
  const savedPerRequest = Math.round(CACHE_READ * reclaimTokens);
  const breakEvenRequests = savedPerRequest === 0 ? 0 : Math.ceil(rewriteCost / savedPerRequest);
  return { rewriteCost, savedPerRequest, breakEvenRequests };
}
