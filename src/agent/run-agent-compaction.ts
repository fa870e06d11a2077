import {
  type CompactionOutcome,
  groupTurns,
  type PreparedSummary,
  planRetention,
  preparedPlan,
  runCompaction,
  type SummariserFigures,
  sizeTurns,
  withLoadedSkills,
  withRestoredFacts,
} from "../compaction/index.js";
import type { CompactionTrigger, ModelClient, PantoError, SummaryRequestUsage } from "../core/index.js";
import { optional } from "../core/index.js";
import { flaggedTodos } from "../todos/index.js";
import type { AgentOptions } from "./agent-options.js";
import { contextForSummariser, summariserPrompt } from "./compaction-controls.js";
import { effectiveNumbering, planNumbers } from "./compaction-numbering.js";
import type { PreparedCompaction } from "./compaction-preparation.js";
import { compactionBlockedByHook } from "./hook-points.js";
import { summariserFigures } from "./summariser-figures.js";
import { summaryRequester } from "./summary-requester.js";
import { effectiveKeepBudget } from "./window-guard.js";

export interface AgentCompactionInput {
  options: AgentOptions;
  trigger: CompactionTrigger;
  instructions: string | undefined;
  signal: AbortSignal | undefined;
  /** `/compact --force`: summarise all but the latest turn even when everything fits the budget. */
  force?: boolean;
  /** The overflow being recovered from, when the trigger is "overflow". */
  overflow?: PantoError | undefined;
  /** The active "provider/model". */
  activeModel: string;
  /** The client for a model id (the active one's own client for the active model). */
  clientFor: (modelId: string) => ModelClient;
  /** The estimate of the system prompt and tool definitions. */
  overheadTokens: number;
  /** The next request's size as the provider counts it (before the compaction, and after it is written). */
  reportedTokens: () => number;
  /** Provider tokens per estimated token now (`requestScale`), recorded so later sizes match. */
  sizeScale: () => number | undefined;
  /**
   * The summary prepared ahead (config `prepare_compaction_at`), when the session still holds it
   * and `accept` takes it for this compaction.
   */
  takePrepared?: (accept: (prepared: PreparedSummary) => boolean) => Promise<PreparedCompaction | undefined>;
}

/**
 * One compaction as the agent runs it: the PreCompact hooks, `runCompaction` with the keep budget
 * and summary limit the learned windows allow, and then its record: the compaction entry (the turns
 * it stands for, facts restored, summary usage attached) and kept copies, or a compaction-failed entry; an event for each
 * attempt and for the outcome, and the PostCompact hooks.
 */
export async function runAgentCompaction(input: AgentCompactionInput): Promise<CompactionOutcome> {
  const { options, trigger, instructions, overflow } = input;
  const { session, onEvent, hooks, keepVerbatimTokens } = options;
  // The provider's own count of the rejected request when it stated one.
  const tokensBefore = overflow?.requestTokens ?? input.reportedTokens();
  const sizeScale = input.sizeScale();
  const blocked = await compactionBlockedByHook(hooks, {
    trigger,
    instructions,
    tokensBefore,
    keepVerbatimTokens,
  });
  if (blocked !== undefined) return blocked;
  const started = performance.now();
  const summaryUsage: SummaryRequestUsage[] = [];
  const context = contextForSummariser(session);
  const limits = windowLimits(input);
  const prepared = await takePrepared(input, context.messages);
  if (prepared !== undefined) summaryUsage.push(...prepared.usage);
  const outcome = await runCompaction({
    context,
    trigger,
    // A cold cache's compaction comes before a request of the turn, which stays whole after it.
    lastTurnInFlight: trigger === "overflow" || trigger === "cold-cache",
    ...(input.force === true && trigger === "manual" ? { force: true } : {}),
    ...limits,
    ...optional("prepared", prepared?.prepared),
    systemPrompt: summariserPrompt(session, options.compactionPrompt),
    ...(instructions === undefined || instructions.trim() === "" ? {} : { instructions }),
    activeModel: input.activeModel,
    ...optional("compactionModel", options.compactionModel),
    summarise: summaryRequester(
      input.clientFor,
      (characters) => onEvent({ type: "compaction-progress", characters }),
      (modelId, usage) => summaryUsage.push({ model: modelId, ...usage }),
    ),
    ...optional("signal", input.signal),
    onEvent: (event) => {
      if (event.type === "compaction-attempt")
        onEvent({ type: "compaction-started", trigger, model: event.model, tokensBefore });
      else
        onEvent({
          type: "compaction-attempt-failed",
          trigger,
          model: event.model,
          code: event.error.code,
          message: event.error.message,
        });
    },
  });
  const durationMs = Math.round(performance.now() - started);
  if (outcome.type === "compacted") {
    const numbers = planNumbers(outcome.plan, await effectiveNumbering(session));
    // The summariser saw the stubs, as the context holds them; the ledger and the restored facts
    // read the cleared outputs whole, as the file keeps them (same messages, same order).
    const whole = session.unclearedContext().messages;
    const summarisedWhole = outcome.plan.summarise.map((turn) => ({
      ...turn,
      messages: whole.slice(turn.start, turn.end),
    }));
    const numbered = { ...outcome.record, ...optional("turns", numbers.turns) };
    const restored =
      options.restoreFacts === false
        ? numbered
        : withRestoredFacts(numbered, summarisedWhole, {
            turnNumbers: numbers.summarised,
            ...optional("previousLedger", session.activeCompaction()?.ledger),
          });
    const checked = withLoadedSkills(restored, summarisedWhole, session.activeCompaction()?.skills);
    // The list in force over the whole context now: kept copies of a later call override it on replay.
    const todos = await flaggedTodos(session);
    const record = {
      ...checked,
      ...(todos.length === 0 ? {} : { todos }),
      ...(summaryUsage.length === 0 ? {} : { usage: summaryUsage }),
      ...optional("sizeScale", sizeScale),
    };
    const { compaction } = await session.appendCompaction(record, outcome.kept);
    const tokensAfter = input.reportedTokens();
    onEvent({
      type: "compaction",
      compactionId: compaction.id,
      record,
      tokensBefore,
      tokensAfter,
      durationMs,
      ...(prepared === undefined ? {} : { prepared: true as const }),
      ...optional("requestTokens", overflow?.requestTokens),
      ...optional("contextWindow", overflow?.contextWindow),
    });
    await hooks?.postCompact(record, tokensBefore, tokensAfter);
    return { ...outcome, record };
  }
  if (outcome.type === "nothing-to-summarise") {
    onEvent({ type: "compaction-skipped", trigger, reason: outcome.reason });
    return outcome;
  }
  const attempts = outcome.attempts.map((a) => ({
    model: a.model,
    code: a.error.code,
    message: a.error.message,
  }));
  // A cancel is the user's choice, not a failure worth keeping on record.
  if (outcome.error.code !== "aborted") await session.appendCompactionFailed(trigger, attempts);
  onEvent({
    type: "compaction-failed",
    trigger,
    code: outcome.error.code,
    message: outcome.error.message,
    attempts,
    durationMs,
  });
  return outcome;
}

/**
 * The summary prepared ahead, when this compaction can apply it: an overflow's, when its turns are
 * still the context's first and the turn in flight is not among them (`runCompaction` summarises on
 * top of it the turns a new summary would also take, so the retry is as likely to fit as v1's,
 * spec rule 8); a `/compact`'s without instructions or --force, when it covers the very prefix a
 * new summary would; a cold cache's (config `compact_when_cold`) as an overflow's. Otherwise the
 * summary is asked for as v1 does.
 */
async function takePrepared(
  input: AgentCompactionInput,
  messages: AgentContextMessages,
): Promise<PreparedCompaction | undefined> {
  const { trigger, instructions, takePrepared: take } = input;
  if (take === undefined || trigger === "edited") return undefined;
  if (trigger === "manual" && (input.force === true || (instructions ?? "").trim() !== "")) return undefined;
  const sized = sizeTurns(groupTurns(messages));
  return take((prepared) => {
    if (trigger === "manual") {
      const plan = planRetention(sized, {
        budgetTokens: input.options.keepVerbatimTokens,
        lastTurnInFlight: false,
      });
      return plan.summarise.length === prepared.turns;
    }
    return preparedPlan(sized, prepared.turns, true) !== undefined;
  });
}

type AgentContextMessages = ReturnType<typeof contextForSummariser>["messages"];

/**
 * Whether a summary prepared for the first `turns` turns could still be applied at the next
 * overflow: every turn after them (the context ends a turn, so none is in flight yet) fits the keep
 * budget an overflow's compaction would have. When the turns added since have outgrown it, a fresh
 * summary is worth writing, or the overflow would find the prepared one refused and wait for v1's.
 */
export function preparedStillFits(
  options: AgentOptions,
  turns: number,
  activeModel: string,
  overheadTokens: number,
): boolean {
  const { budgetTokens } = windowLimits({ options, trigger: "overflow", activeModel, overheadTokens });
  const sized = sizeTurns(groupTurns(options.session.effectiveContext().messages));
  const plan = preparedPlan(sized, turns, false);
  return plan !== undefined && plan.keptTokens <= budgetTokens;
}

/**
 * The keep budget the learned window allows (DESIGN: never configured), and what the provider's
 * figures say about the model a summary is asked of first: only those may cut the summary request
 * before it is sent (issue 33); the estimate alone never does. On overflow with a learned window,
 * also the room that window leaves beside the overhead and a summary (`preparedRoomTokens`): a
 * summary prepared ahead is applied as written while what it keeps, the turn in flight included,
 * fits there, as v1's budget is capped by the same room.
 */
export function windowLimits(
  input: Pick<AgentCompactionInput, "options" | "trigger" | "activeModel" | "overheadTokens">,
): { budgetTokens: number; figures?: SummariserFigures; preparedRoomTokens?: number } {
  const { session, keepVerbatimTokens, compactionModel } = input.options;
  const windows = session.learnedWindows();
  const context = session.effectiveContext();
  // The kept copies of the compaction in force carry the usage of the longer context they were
  // first answered in: no measure of this one's overhead.
  const copies = session.activeCompaction()?.keptMessages ?? 0;
  // A manual /compact keeps the configured budget; only recovery must make its one retry fit.
  const budgetTokens =
    input.trigger === "manual"
      ? keepVerbatimTokens
      : effectiveKeepBudget(
          keepVerbatimTokens,
          windows[input.activeModel],
          input.overheadTokens,
          context,
          input.activeModel,
          copies,
        );
  const window = windows[input.activeModel];
  const room =
    input.trigger === "overflow" && window !== undefined
      ? effectiveKeepBudget(
          Number.POSITIVE_INFINITY,
          window,
          input.overheadTokens,
          context,
          input.activeModel,
          copies,
        )
      : undefined;
  const summariser = compactionModel ?? input.activeModel;
  const figures = summariserFigures(summariser, windows[summariser], context, input.overheadTokens, copies);
  return {
    budgetTokens,
    ...(figures === undefined ? {} : { figures }),
    ...(room === undefined ? {} : { preparedRoomTokens: room }),
  };
}
