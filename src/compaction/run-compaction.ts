import type {
  CompactionRecord,
  CompactionTrigger,
  EffectiveContext,
  Message,
  SizedTurn,
} from "../core/index.js";
import { optional, type PantoError } from "../core/index.js";
import { estimateTokens } from "./estimate-tokens.js";
import { groupTurns } from "./group-turns.js";
import { planRetention, type RetentionPlan } from "./plan-retention.js";
import { type PreparedSummary, preparedPlan } from "./prepare-summary.js";
import { sizeTurns } from "./size-turns.js";
import { type PrefixSummary, type SummariserSettings, summariseTurns } from "./summarise-prefix.js";
import type { CompactionAttemptFailure } from "./summarise-with-fallback.js";

export interface RunCompactionInput extends SummariserSettings {
  /** The current effective context: the latest compaction block, if any, and the messages after it. */
  context: EffectiveContext;
  trigger: CompactionTrigger;
  /** True for overflow recovery: the last turn of `context.messages` is the turn in flight. */
  lastTurnInFlight: boolean;
  /** Keep-verbatim budget in tokens. */
  budgetTokens: number;
  /** `/compact --force`: summarise all but the latest turn even when everything fits the budget. */
  force?: boolean;
  /**
   * On overflow, the room the learned window leaves for kept turns (the turn in flight included):
   * a prepared summary whose kept turns fit it is applied as written, though they exceed the
   * configured budget. Without it, only v1's budget says.
   */
  preparedRoomTokens?: number;
  /**
   * A summary prepared ahead for the context's first turns (the caller has checked they are
   * unchanged): applied instead of a summary request, every later turn kept verbatim.
   */
  prepared?: PreparedSummary;
}

export type CompactionOutcome =
  /** The caller appends the compaction entry, then `kept` (spec rule 4). */
  | { type: "compacted"; record: CompactionRecord; kept: Message[]; plan: RetentionPlan }
  /**
   * No model was called; the context stays as it is. `forcible`: every turn fit the budget and a
   * forced compaction would summarise the older ones.
   */
  | { type: "nothing-to-summarise"; reason: string; forcible?: true }
  /**
   * The caller appends nothing that changes the effective context. `blocked`: refused before it
   * started (a PreCompact hook), so no compaction event reported it.
   */
  | { type: "failed"; error: PantoError; attempts: CompactionAttemptFailure[]; blocked?: true };

/**
 * Runs one compaction: groups and sizes the turns, keeps the longest suffix that fits the budget
 * (the turn in flight always), summarises the rest with the previous summary merged in, and returns
 * what to write. It writes nothing itself.
 */
export async function runCompaction(input: RunCompactionInput): Promise<CompactionOutcome> {
  const sized = sizeTurns(groupTurns(input.context.messages));
  const plan = planWithinRejectedContext(sized, input);
  const prepared =
    input.prepared === undefined
      ? undefined
      : preparedPlan(sized, input.prepared.turns, input.lastTurnInFlight);
  if (input.prepared !== undefined && prepared !== undefined) {
    // As written when it summarises at least what a new summary would, or when what it keeps (the
    // turn in flight included) fits the room the learned window leaves, the cap of v1's budget
    // too. Otherwise the turns since it no longer fit beside the turn in flight: those a new
    // summary would also take are summarised on top of it (it is their previous summary), so the
    // retry fits as v1's would (spec rule 8), and the request carries only them.
    const fitsRoom =
      input.preparedRoomTokens !== undefined && prepared.keptTokens <= input.preparedRoomTokens;
    if (prepared.summarise.length >= plan.summarise.length || fitsRoom)
      return compacted(input, prepared, sized, input.prepared.summary);
    const added = await summariseTurns(
      input.prepared.summary.summary,
      plan.summarise.slice(prepared.summarise.length),
      input,
    );
    if (!added.ok) return { type: "failed", error: added.error, attempts: added.attempts };
    return compacted(input, plan, sized, added);
  }
  if (plan.summarise.length === 0)
    return {
      type: "nothing-to-summarise",
      reason: nothingReason(input, plan),
      ...(input.force !== true && plan.inFlight === undefined && plan.keep.length > 1
        ? { forcible: true }
        : {}),
    };
  const result = await summariseTurns(input.context.compaction?.summary, plan.summarise, input);
  if (!result.ok) return { type: "failed", error: result.error, attempts: result.attempts };
  return compacted(input, plan, sized, result);
}

function compacted(
  input: RunCompactionInput,
  plan: RetentionPlan,
  sized: readonly SizedTurn[],
  summary: Extract<PrefixSummary, { ok: true }>,
): CompactionOutcome {
  return {
    type: "compacted",
    record: buildRecord(input, plan, sized, summary),
    kept: keptMessages(plan),
    plan,
  };
}

/**
 * The retention plan. On overflow the provider has just rejected the whole context; when every older
 * turn fits the configured budget (a budget larger than this model's window), keeping them would only
 * overflow again, so, conservatively (spec rule 8), only the turn in flight is kept verbatim.
 */
function planWithinRejectedContext(sized: readonly SizedTurn[], input: RunCompactionInput): RetentionPlan {
  const options = {
    budgetTokens: input.budgetTokens,
    lastTurnInFlight: input.lastTurnInFlight,
    ...optional("force", input.force),
  };
  const plan = planRetention(sized, options);
  if (input.trigger !== "overflow" || plan.summarise.length > 0 || plan.keep.length === 0) return plan;
  return planRetention(sized, { ...options, budgetTokens: 0 });
}

function nothingReason(input: RunCompactionInput, plan: RetentionPlan): string {
  if (plan.keep.length === 0 && plan.inFlight !== undefined) return "nothing older than the turn in flight";
  if (plan.keep.length === 0) return "the conversation is empty";
  if (input.force === true) return "nothing older than the latest turn";
  return `the whole conversation (about ${plan.keptTokens} tokens) fits the keep-verbatim budget of ${input.budgetTokens} tokens`;
}

function buildRecord(
  input: RunCompactionInput,
  plan: RetentionPlan,
  sized: readonly SizedTurn[],
  result: Extract<PrefixSummary, { ok: true }>,
): CompactionRecord {
  const instructions = input.instructions?.trim() ?? "";
  return {
    summary: result.summary,
    trigger: input.trigger,
    model: result.model,
    fellBack: result.fellBack,
    ...(instructions === "" ? {} : { instructions }),
    turnsSummarised: plan.summarise.length,
    turnsKept: plan.keep.length + (plan.inFlight === undefined ? 0 : 1),
    tokensSummarised: plan.summarisedTokens,
    tokensKept: plan.keptTokens,
    summaryTokens: estimateTokens(result.summary),
    ...(result.chunks > 1 ? { chunks: result.chunks } : {}),
    ...optional("chunking", result.chunking),
    sizeSources: {
      usage: sized.filter((turn) => turn.source === "usage").length,
      estimate: sized.filter((turn) => turn.source === "estimate").length,
    },
  };
}

/** Copies, so the caller may write them out while the original context stays untouched. */
function keptMessages(plan: RetentionPlan): Message[] {
  const turns = plan.inFlight === undefined ? plan.keep : [...plan.keep, plan.inFlight];
  return structuredClone(turns.flatMap((turn) => turn.messages));
}
