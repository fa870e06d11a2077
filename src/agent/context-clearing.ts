import { type ClearingPlan, type ClearingSettings, clearingDue, planClearing } from "../compaction/index.js";
import {
  type ClearingEntry,
  clearingsInForce,
  type Session,
  type SessionEntry,
  type UnclearEntry,
} from "../session/index.js";
import type { AgentEvent } from "./agent-events.js";

/** What clearing needs of the agent. */
export interface ClearingDeps {
  session: Session;
  settings: ClearingSettings;
  onEvent: (event: AgentEvent) => void;
  /** The model's known window (learned, reported, configured or published), if any. */
  window: () => Promise<number | undefined>;
  /** The next request's size as the provider counts it (`Agent.contextTokens`). */
  requestTokens: () => number;
  /** panto's own estimate of the next request (system prompt, tools and context), which errs large. */
  estimatedTokens: () => number;
  now?: () => number;
}

/** The session's latest request as recorded: the prompt size its provider reported and when it was answered. */
export function latestRequest(entries: readonly SessionEntry[]): { promptTokens?: number; at?: number } {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type !== "message" || entry.keptBy !== undefined || entry.message.role !== "assistant")
      continue;
    const at = Date.parse(entry.ts);
    const promptTokens = entry.message.usage?.promptTokens;
    return {
      ...(Number.isFinite(at) ? { at } : {}),
      ...(promptTokens !== undefined && promptTokens > 0 ? { promptTokens } : {}),
    };
  }
  return {};
}

/**
 * How many requests the prompt cache stayed warm for, on average, between the pauses longer than
 * `ttlMs` among the session's answers (their recorded times); undefined while there was no such pause.
 */
export function warmRunRequests(entries: readonly SessionEntry[], ttlMs: number): number | undefined {
  let requests = 0;
  let pauses = 0;
  let previous: number | undefined;
  for (const entry of entries) {
    if (entry.type !== "message" || entry.keptBy !== undefined || entry.message.role !== "assistant")
      continue;
    const at = Date.parse(entry.ts);
    if (!Number.isFinite(at)) continue;
    requests++;
    if (previous !== undefined && at - previous > ttlMs) pauses++;
    previous = at;
  }
  return pauses === 0 ? undefined : requests / pauses;
}

/**
 * How much the size the provider last reported overstates the context now: what the clearings and
 * unclears written since the latest answer took out (positive) or put back (negative).
 */
export function sizeChangeSinceUsage(entries: readonly SessionEntry[]): number {
  let change = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type === "message" && entry.message.role === "assistant" && entry.keptBy === undefined) break;
    if (entry?.type === "clearing" || entry?.type === "unclear")
      change += entry.tokensBefore - entry.tokensAfter;
  }
  return change;
}

/** After `/unclear`: the reported prompt size clearing waits for (the latest unclear's size plus `min_reclaim_tokens`). */
function pausedBelow(entries: readonly SessionEntry[], settings: ClearingSettings): number | undefined {
  const undo = entries.findLast((entry): entry is UnclearEntry => entry.type === "unclear");
  if (undo === undefined) return undefined;
  const later = entries.findLast((entry) => entry.type === "clearing");
  if (later !== undefined && entries.indexOf(later) > entries.indexOf(undo)) return undefined;
  return undo.tokensAfter + settings.minReclaimTokens;
}

/**
 * The decision for the next request, from what the session records (see `planClearing`); with
 * `turnEnded`, for the request that will start the next turn (asked as a turn ends).
 */
export async function planNow(
  deps: ClearingDeps,
  options: { turnEnded?: boolean } = {},
): Promise<ClearingPlan> {
  const { session, settings } = deps;
  if (!settings.enabled) return { type: "keep", reason: "disabled" };
  const entries = session.activeEntries();
  const latest = latestRequest(entries);
  // The window matters only for the default trigger, and only once a request reported its size.
  const needsWindow = settings.triggerTokens === undefined && latest.promptTokens !== undefined;
  const window = needsWindow ? await deps.window() : undefined;
  const paused = pausedBelow(entries, settings);
  const figures = {
    ...(latest.promptTokens === undefined ? {} : { latestPromptTokens: latest.promptTokens }),
    ...(latest.at === undefined ? {} : { lastRequestAt: latest.at }),
    ...(window === undefined ? {} : { window }),
    ...(paused === undefined ? {} : { pausedBelowTokens: paused }),
    now: deps.now?.() ?? Date.now(),
    settings,
  };
  // Most requests are below the trigger with a warm cache: no context is built for them.
  const due = clearingDue(figures);
  if (due.type === "keep") return due;
  const warm =
    due.reason === "trigger" ? warmRunRequests(entries, settings.cacheTtlSeconds * 1000) : undefined;
  // Whether to wait for a cold cache depends on how near a known window is.
  const known = warm === undefined || window !== undefined ? window : await deps.window();
  return planClearing({
    ...figures,
    ...(known === undefined ? {} : { window: known }),
    ...(warm === undefined ? {} : { warmRunRequests: warm }),
    ...(options.turnEnded === true ? { turnEnded: true } : {}),
    context: session.effectiveContext(),
    cleared: clearingsInForce(entries).cleared,
  });
}

/**
 * What a clearing that reclaims `reclaimTokens` of panto's estimate takes out of the size shown
 * (`requestTokens`, the provider's count where it has one): its share of the estimated request,
 * applied to that size. Never more than the size itself, whatever the estimate makes of the
 * outputs (digits, say, which it counts far above the provider).
 */
export function reclaimedShown(
  reclaimTokens: number,
  deps: Pick<ClearingDeps, "requestTokens" | "estimatedTokens">,
): number {
  const shown = deps.requestTokens();
  const estimated = deps.estimatedTokens();
  const share = estimated > 0 ? Math.min(1, Math.max(0, reclaimTokens / estimated)) : 0;
  return Math.round(shown * share);
}

/**
 * Clears old tool results before the next request when the decision says so: one clearing entry
 * (the results, the sizes before and after), then a `context-cleared` event. The results stay in
 * the file; the session model puts their stubs in the context.
 */
export async function clearIfDue(deps: ClearingDeps): Promise<ClearingEntry | undefined> {
  const plan = await planNow(deps);
  if (plan.type !== "clear") return undefined;
  const tokensBefore = deps.requestTokens();
  const tokensAfter = tokensBefore - reclaimedShown(plan.reclaimTokens, deps);
  const entry = await deps.session.appendClearing({
    results: plan.results,
    tokensBefore,
    tokensAfter,
    reason: plan.reason,
  });
  deps.onEvent({
    type: "context-cleared",
    clearingId: entry.id,
    reason: plan.reason,
    toolCallIds: plan.results.map((result) => result.toolCallId),
    tokensBefore,
    tokensAfter,
  });
  return entry;
}

/** What `/unclear` did. */
export type UnclearOutcome =
  | { type: "unclear"; clearingId: string; toolCallIds: string[]; tokensBefore: number; tokensAfter: number }
  | { type: "nothing-to-unclear" };

/**
 * `/unclear`: takes back the latest clearing in force (an `unclear` entry; nothing is rewritten),
 * which also pauses clearing until the context has grown by another `min_reclaim_tokens`.
 */
export async function unclearLatest(
  deps: Pick<ClearingDeps, "session" | "onEvent" | "requestTokens">,
): Promise<UnclearOutcome> {
  const { clearings } = clearingsInForce(deps.session.activeEntries());
  const latest = clearings.at(-1);
  if (latest === undefined) return { type: "nothing-to-unclear" };
  const tokensBefore = deps.requestTokens();
  const restored =
    latest.entry === undefined ? undefined : latest.entry.tokensBefore - latest.entry.tokensAfter;
  const tokensAfter = tokensBefore + Math.max(0, restored ?? reclaimOf(latest.results));
  await deps.session.appendUnclear({ clearingId: latest.id, tokensBefore, tokensAfter });
  const toolCallIds = latest.results.map((result) => result.toolCallId);
  deps.onEvent({ type: "clearing-undone", clearingId: latest.id, toolCallIds, tokensBefore, tokensAfter });
  return { type: "unclear", clearingId: latest.id, toolCallIds, tokensBefore, tokensAfter };
}

function reclaimOf(results: ReadonlyArray<{ tokens: number }>): number {
  return results.reduce((total, result) => total + result.tokens, 0);
}
