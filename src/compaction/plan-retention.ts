import type { SizedTurn } from "../core/index.js";

/** Which turns a compaction summarises and which it keeps verbatim. */
export interface RetentionPlan {
  /** The prefix to summarise, oldest first. Empty means a compaction has nothing to do. */
  summarise: SizedTurn[];
  /** The kept suffix before the turn in flight, oldest first. */
  keep: SizedTurn[];
  /** The turn whose request overflowed; always kept, after `keep`. */
  inFlight?: SizedTurn;
  /** Tokens of `keep` plus the turn in flight. */
  keptTokens: number;
  summarisedTokens: number;
}

export interface RetentionOptions {
  /** Keep-verbatim budget in tokens. */
  budgetTokens: number;
  /** True for overflow recovery: the last turn is in flight and is never summarised. */
  lastTurnInFlight: boolean;
  /**
   * `/compact --force`: when every turn fits the budget, summarise all but the latest turn anyway
   * (the user asked for a smaller context); the latest turn is always kept.
   */
  force?: boolean;
}

/**
 * Keeps the longest suffix of whole turns that fits the budget (spec "Turn-boundary rule"). The turn
 * in flight is kept whatever its size and counted first; then earlier turns are added newest first
 * while the total stays within budget, stopping at the first one that does not fit, so the kept part
 * is contiguous and no turn is ever split. A budget of 0 (or an in-flight turn larger than the
 * budget) keeps only the turn in flight. Forced, a plan that would summarise nothing summarises all
 * but the latest turn.
 */
export function planRetention(turns: readonly SizedTurn[], options: RetentionOptions): RetentionPlan {
  const inFlight = options.lastTurnInFlight ? turns.at(-1) : undefined;
  const candidates = inFlight === undefined ? turns : turns.slice(0, -1);
  let keptTokens = inFlight?.tokens ?? 0;
  let firstKept = candidates.length;
  while (firstKept > 0) {
    const turn = candidates[firstKept - 1] as SizedTurn;
    if (!(keptTokens + turn.tokens <= options.budgetTokens)) break;
    keptTokens += turn.tokens;
    firstKept--;
  }
  if (options.force === true && firstKept === 0 && candidates.length > 1) {
    firstKept = candidates.length - 1;
    keptTokens = (inFlight?.tokens ?? 0) + (candidates[firstKept] as SizedTurn).tokens;
  }
  const summarise = candidates.slice(0, firstKept);
  const plan: RetentionPlan = {
    summarise,
    keep: candidates.slice(firstKept),
    keptTokens,
    summarisedTokens: summarise.reduce((total, turn) => total + turn.tokens, 0),
  };
  if (inFlight !== undefined) plan.inFlight = inFlight;
  return plan;
}
