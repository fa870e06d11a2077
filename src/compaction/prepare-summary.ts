import type { EffectiveContext, PantoError, SizedTurn } from "../core/index.js";
import { groupTurns } from "./group-turns.js";
import { planRetention, type RetentionPlan } from "./plan-retention.js";
import { sizeTurns } from "./size-turns.js";
import { type PrefixSummary, type SummariserSettings, summariseTurns } from "./summarise-prefix.js";
import type { CompactionAttemptFailure } from "./summarise-with-fallback.js";

/**
 * A summary written ahead of need (config `prepare_compaction_at`) for the first `turns` whole
 * turns of a context: what a later compaction applies instead of asking for a new one, as long as
 * those turns are still the context's first (the caller checks).
 */
export interface PreparedSummary {
  turns: number;
  summary: Extract<PrefixSummary, { ok: true }>;
}

export interface PrepareSummaryInput extends Omit<SummariserSettings, "instructions"> {
  /** The effective context as the summariser sees it, at the end of a turn (none in flight). */
  context: EffectiveContext;
  /** Keep-verbatim budget in tokens (the one an overflow would use). */
  budgetTokens: number;
  /**
   * A summary prepared earlier for the context's first turns (the caller has checked they are
   * unchanged) that no longer covers enough: the turns after it that the prefix now takes are
   * summarised on top of it, as an overflow would summarise them (it is their previous summary),
   * instead of the whole prefix again.
   */
  onTopOf?: PreparedSummary;
}

export type PrepareOutcome =
  | { type: "prepared"; prepared: PreparedSummary; plan: RetentionPlan }
  | { type: "nothing-to-summarise" }
  | { type: "failed"; error: PantoError; attempts: CompactionAttemptFailure[] };

/**
 * Summarises, now, the prefix a compaction would summarise: the turns before the longest suffix
 * that fits the budget, with the summary in effect as `<previous-summary>` and the usual fallback
 * (spec rules 5, 7); or, `onTopOf` given, only the turns of that prefix after it, with it as
 * `<previous-summary>`. It writes nothing.
 */
export async function prepareSummary(input: PrepareSummaryInput): Promise<PrepareOutcome> {
  const sized = sizeTurns(groupTurns(input.context.messages));
  const plan = planRetention(sized, { budgetTokens: input.budgetTokens, lastTurnInFlight: false });
  if (plan.summarise.length === 0) return { type: "nothing-to-summarise" };
  const base = input.onTopOf;
  const onTop = base !== undefined && base.turns >= 1 && base.turns < plan.summarise.length;
  const result = onTop
    ? await summariseTurns(base.summary.summary, plan.summarise.slice(base.turns), input)
    : await summariseTurns(input.context.compaction?.summary, plan.summarise, input);
  if (!result.ok) return { type: "failed", error: result.error, attempts: result.attempts };
  return { type: "prepared", prepared: { turns: plan.summarise.length, summary: result }, plan };
}

/**
 * The plan a prepared summary stands for in the context as it is now: its turns summarised, every
 * turn after them kept verbatim (those added since it was written too), the last one as the turn
 * in flight on overflow. Undefined when the summary does not fit this context (no turn of it, or,
 * on overflow, the turn in flight among them).
 */
export function preparedPlan(
  sized: readonly SizedTurn[],
  turns: number,
  lastTurnInFlight: boolean,
): RetentionPlan | undefined {
  const limit = lastTurnInFlight ? sized.length - 1 : sized.length;
  if (turns < 1 || turns > limit) return undefined;
  const summarise = sized.slice(0, turns);
  const rest = sized.slice(turns);
  const inFlight = lastTurnInFlight ? rest.at(-1) : undefined;
  const keep = inFlight === undefined ? rest : rest.slice(0, -1);
  const plan: RetentionPlan = {
    summarise,
    keep,
    keptTokens: rest.reduce((total, turn) => total + turn.tokens, 0),
    summarisedTokens: summarise.reduce((total, turn) => total + turn.tokens, 0),
  };
  if (inFlight !== undefined) plan.inFlight = inFlight;
  return plan;
}
