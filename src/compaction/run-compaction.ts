import type {
  CompactionRecord,
  CompactionTrigger,
  EffectiveContext,
  Message,
  SizedTurn,
} from "../core/index.js";
import { optional, type PantoError } from "../core/index.js";
import { buildCompactionRequest } from "./build-compaction-request.js";
import { nextChunk } from "./chunk-for-window.js";
import { estimateTokens } from "./estimate-tokens.js";
import { groupTurns } from "./group-turns.js";
import { planRetention, type RetentionPlan } from "./plan-retention.js";
import { serializeTranscript } from "./serialize-transcript.js";
import { sizeTurns } from "./size-turns.js";
import {
  type CompactionAttemptFailure,
  type CompactionEvent,
  type SummariseFn,
  type SummaryResult,
  summariseWithFallback,
} from "./summarise-with-fallback.js";

export interface RunCompactionInput {
  /** The current effective context: the latest compaction block, if any, and the messages after it. */
  context: EffectiveContext;
  trigger: CompactionTrigger;
  /** True for overflow recovery: the last turn of `context.messages` is the turn in flight. */
  lastTurnInFlight: boolean;
  /** Keep-verbatim budget in tokens. */
  budgetTokens: number;
  /** The resolved COMPACTION.md. */
  systemPrompt: string;
  /** `/compact` arguments. */
  instructions?: string;
  /** "provider/model" of the chat. */
  activeModel: string;
  /** Config `compaction_model`. */
  compactionModel?: string;
  summarise: SummariseFn;
  /**
   * The most one summary request may be (local estimate), from the summarising model's learned
   * context window. When set, the turns to summarise are cut up front into chunks that fit, and none
   * is sent that is known not to fit.
   */
  summaryLimitTokens?: number;
  signal?: AbortSignal;
  onEvent?: (event: CompactionEvent) => void;
}

export type CompactionOutcome =
  /** The caller appends the compaction entry, then `kept` (spec rule 4). */
  | { type: "compacted"; record: CompactionRecord; kept: Message[]; plan: RetentionPlan }
  /** No model was called; the context stays as it is. */
  | { type: "nothing-to-summarise"; reason: string }
  /** The caller appends nothing that changes the effective context. */
  | { type: "failed"; error: PantoError; attempts: CompactionAttemptFailure[] };

/**
 * Runs one compaction: groups and sizes the turns, keeps the longest suffix that fits the budget
 * (the turn in flight always), summarises the rest with the previous summary merged in, and returns
 * what to write. It writes nothing itself.
 */
export async function runCompaction(input: RunCompactionInput): Promise<CompactionOutcome> {
  const sized = sizeTurns(groupTurns(input.context.messages));
  const plan = planWithinRejectedContext(sized, input);
  if (plan.summarise.length === 0)
    return { type: "nothing-to-summarise", reason: nothingReason(input, plan) };
  const result = await summariseWithinLimit(plan.summarise, input);
  if (!result.ok) return { type: "failed", error: result.error, attempts: result.attempts };
  return {
    type: "compacted",
    record: buildRecord(input, plan, sized, result),
    kept: keptMessages(plan),
    plan,
  };
}

/**
 * Summarises `turns` in one request; when even the active model rejects that request as too large,
 * splits the turns in two at a turn boundary and summarises the older half, then the newer half
 * with the older half's summary as its `<previous-summary>`, so compaction is never stuck on its own
 * size. A single turn is never split (v1), so one turn too large to summarise stays a failure.
 */
async function summariseTurns(
  turns: readonly SizedTurn[],
  previousSummary: string | undefined,
  input: RunCompactionInput,
): Promise<ChunkedSummary> {
  const request = buildCompactionRequest({
    systemPrompt: input.systemPrompt,
    transcript: serializeTranscript(turns.flatMap((turn) => turn.messages)),
    ...optional("instructions", input.instructions),
    ...optional("previousSummary", previousSummary),
  });
  const result = await summariseWithFallback({
    request,
    activeModel: input.activeModel,
    summarise: input.summarise,
    ...optional("compactionModel", input.compactionModel),
    ...optional("signal", input.signal),
    ...optional("onEvent", input.onEvent),
  });
  if (result.ok) return { ...result, requests: 1 };
  if (turns.length < 2 || result.attempts.at(-1)?.error.code !== "context_overflow") return result;
  const [older, newer] = splitAtHalfTokens(turns);
  const first = await summariseTurns(older, previousSummary, input);
  if (!first.ok) return first;
  const second = await summariseTurns(newer, first.summary, input);
  if (!second.ok) return second;
  return {
    ...second,
    fellBack: first.fellBack || second.fellBack,
    requests: first.requests + second.requests,
  };
}

/**
 * Summarises the prefix in one request, or, when the summarising model's window is known, in chunks
 * of whole turns cut to fit it before anything is sent, each chunk's summary the next one's previous
 * summary.
 */
async function summariseWithinLimit(
  turns: readonly SizedTurn[],
  input: RunCompactionInput,
): Promise<ChunkedSummary> {
  let summary = input.context.compaction?.summary;
  const limitTokens = input.summaryLimitTokens;
  if (limitTokens === undefined) return summariseTurns(turns, summary, input);
  const limits = {
    limitTokens,
    systemPrompt: input.systemPrompt,
    ...optional("instructions", input.instructions),
  };
  let combined: ChunkedSummary | undefined;
  for (let start = 0; start < turns.length; ) {
    const chunk = nextChunk(turns, start, summary, limits);
    const result = await summariseTurns(turns.slice(start, chunk.end), summary, input);
    if (!result.ok) return result;
    summary = result.summary;
    combined =
      combined?.ok === true
        ? {
            ...result,
            fellBack: combined.fellBack || result.fellBack,
            requests: combined.requests + result.requests,
          }
        : result;
    start = chunk.end;
  }
  return combined as ChunkedSummary;
}

type ChunkedSummary = (SummaryResult & { ok: true; requests: number }) | (SummaryResult & { ok: false });

/** Two non-empty runs of whole turns, the first holding about half the tokens. */
function splitAtHalfTokens(turns: readonly SizedTurn[]): [SizedTurn[], SizedTurn[]] {
  const total = turns.reduce((sum, turn) => sum + turn.tokens, 0);
  let running = 0;
  let cut = 1;
  for (; cut < turns.length - 1; cut++) {
    running += (turns[cut - 1] as SizedTurn).tokens;
    if (running >= total / 2) break;
  }
  return [turns.slice(0, cut), turns.slice(cut)];
}

/**
 * The retention plan. On overflow the provider has just rejected the whole context; when every older
 * turn fits the configured budget (a budget larger than this model's window), keeping them would only
 * overflow again, so, conservatively (spec rule 8), only the turn in flight is kept verbatim.
 */
function planWithinRejectedContext(sized: readonly SizedTurn[], input: RunCompactionInput): RetentionPlan {
  const options = { budgetTokens: input.budgetTokens, lastTurnInFlight: input.lastTurnInFlight };
  const plan = planRetention(sized, options);
  if (input.trigger !== "overflow" || plan.summarise.length > 0 || plan.keep.length === 0) return plan;
  return planRetention(sized, { ...options, budgetTokens: 0 });
}

function nothingReason(input: RunCompactionInput, plan: RetentionPlan): string {
  if (plan.keep.length === 0 && plan.inFlight !== undefined) return "nothing older than the turn in flight";
  if (plan.keep.length === 0) return "the conversation is empty";
  return `the whole conversation (about ${plan.keptTokens} tokens) fits the keep-verbatim budget of ${input.budgetTokens} tokens`;
}

function buildRecord(
  input: RunCompactionInput,
  plan: RetentionPlan,
  sized: readonly SizedTurn[],
  result: { summary: string; model: string; fellBack: boolean; requests: number },
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
    ...(result.requests > 1 ? { chunks: result.requests } : {}),
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
