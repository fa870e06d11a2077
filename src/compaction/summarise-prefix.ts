import type { SizedTurn, SummaryChunking } from "../core/index.js";
import { optional } from "../core/index.js";
import { buildCompactionRequest, type CompactionRequest } from "./build-compaction-request.js";
import { envelopeTokens, nextChunk, type TurnTokens, turnTokensOf } from "./chunk-for-window.js";
import { serializeTranscript } from "./serialize-transcript.js";
import {
  type CompactionAttemptFailure,
  type CompactionEvent,
  type SummariseFn,
  type SummaryResult,
  summariseWithFallback,
} from "./summarise-with-fallback.js";
import {
  leastTokens,
  limitAfterRejection,
  provenTooLarge,
  type StatedSize,
  type SummariserFigures,
  statedSize,
  upFrontLimit,
} from "./summary-fit.js";

export interface SummarisePrefixInput {
  /** The turns to summarise, oldest first. */
  turns: readonly SizedTurn[];
  /** The summary in effect, passed as `<previous-summary>` to the first request. */
  previousSummary: string | undefined;
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
   * What the provider's figures say about the model a summary is asked of first (its window, the
   * smallest ratio of its count to panto's estimate): the whole transcript is cut up front only when
   * they prove it cannot fit. Without them it is sent whole, and the provider judges.
   */
  figures?: SummariserFigures;
  signal?: AbortSignal;
  onEvent?: (event: CompactionEvent) => void;
}

/** What a summary request needs besides its turns: the prompt, the models, the summariser. */
export type SummariserSettings = Omit<SummarisePrefixInput, "turns" | "previousSummary">;

/**
 * Summarises `turns` with `previousSummary` (the summary in effect before them) merged in: what a
 * compaction, a summary prepared ahead and the turns added on top of a prepared one all ask. Only
 * the settings' own fields are passed on, whatever else `settings` holds.
 */
export function summariseTurns(
  previousSummary: string | undefined,
  turns: readonly SizedTurn[],
  settings: SummariserSettings,
): Promise<PrefixSummary> {
  return summarisePrefix({
    turns,
    previousSummary,
    systemPrompt: settings.systemPrompt,
    activeModel: settings.activeModel,
    summarise: settings.summarise,
    ...optional("instructions", settings.instructions),
    ...optional("compactionModel", settings.compactionModel),
    ...optional("figures", settings.figures),
    ...optional("signal", settings.signal),
    ...optional("onEvent", settings.onEvent),
  });
}

export type PrefixSummary =
  | {
      ok: true;
      summary: string;
      model: string;
      fellBack: boolean;
      /** Chained summaries that wrote it: 1 when the whole transcript went in one request. */
      chunks: number;
      /** Why it was chunked; absent when it was not. */
      chunking?: SummaryChunking;
    }
  | (SummaryResult & { ok: false });

/**
 * Summarises the prefix the way issue 33 asks: the whole transcript in one request to the
 * compaction model then (spec rule 7) the active model, unless the provider's figures prove up
 * front that it cannot fit the model asked first. Only when the whole is rejected as too large (or
 * so proven) is it cut into chained chunks of whole turns, each chunk's summary the next one's
 * previous summary, sized from the provider's own numbers (`summary-fit.ts`).
 */
export async function summarisePrefix(input: SummarisePrefixInput): Promise<PrefixSummary> {
  let requests = 0;
  const counted: SummarisePrefixInput = {
    ...input,
    summarise: (model, request, signal) => {
      requests++;
      return input.summarise(model, request, signal);
    },
  };
  const whole = requestFor(counted, input.turns, input.previousSummary);
  // Estimates in the units chunks are cut in (each turn's transcript, worked out once), and only
  // once a size question arises: a summary that goes through whole never pays for them.
  const sizes = chunkSizes(counted);
  const { figures } = input;
  if (figures !== undefined && input.turns.length > 1) {
    const estimatedTokens = sizes.estimate(0, input.turns.length, input.previousSummary);
    if (provenTooLarge(estimatedTokens, figures)) {
      const chunked = await summariseChunks(counted, sizes, upFrontLimit(figures), input.compactionModel);
      if (!chunked.ok) return chunked;
      const chunking: SummaryChunking = {
        reason: "cut_up_front",
        model: figures.model,
        contextWindow: figures.contextWindow,
        estimatedTokens,
        ratio: figures.leastRatio,
        leastTokens: leastTokens(estimatedTokens, figures),
        requests,
      };
      return { ...chunked, chunking };
    }
  }
  const result = await summariseWithFallback({
    ...fallbackInput(counted, input.compactionModel),
    request: whole,
  });
  if (result.ok) return { ...result, chunks: 1 };
  if (input.turns.length < 2 || !tooLarge(result.attempts.at(-1))) return result;
  const rejection = tightestRejection(
    result.attempts,
    whole,
    sizes.estimate(0, input.turns.length, input.previousSummary),
    sizes.envelope(input.previousSummary),
  );
  // A configured compaction model that failed for another reason would fail each chunk the same way.
  const compactionModel = result.attempts.some((a) => a.model === input.compactionModel && tooLarge(a))
    ? input.compactionModel
    : undefined;
  const chunked = await summariseChunks(counted, sizes, rejection.limit, compactionModel);
  if (!chunked.ok) return chunked;
  const chunking: SummaryChunking = {
    reason: "rejected_whole",
    model: rejection.model,
    ...optional("requestTokens", rejection.stated?.requestTokens),
    ...optional("contextWindow", rejection.stated?.contextWindow),
    requests,
  };
  return { ...chunked, chunking };
}

type ChunkedSummary = Extract<PrefixSummary, { ok: true }> | (SummaryResult & { ok: false });

/**
 * The turns in chained chunks of at most `limit` estimated tokens each. A chunk the provider still
 * rejects as too large is cut again from the same turn, smaller (`limitAfterRejection`: by its
 * numbers, else in half, and never as large as the rejected one); one turn too large alone fails.
 */
async function summariseChunks(
  input: SummarisePrefixInput,
  sizes: ChunkSizes,
  limit: number,
  firstModel: string | undefined,
): Promise<ChunkedSummary> {
  let compactionModel = firstModel;
  const { turns } = input;
  const primary = input.compactionModel ?? input.activeModel;
  let summary = input.previousSummary;
  let done: Extract<ChunkedSummary, { ok: true }> | undefined;
  // The whole is known not to fit: the first chunk is never all of it.
  let rejectedEnd: number | undefined = turns.length;
  for (let start = 0; start < turns.length; ) {
    let { end } = nextChunk(turns, start, summary, { ...sizes.limits, limitTokens: limit }, sizes.turnTokens);
    if (rejectedEnd !== undefined && end >= rejectedEnd) end = start + Math.floor((rejectedEnd - start) / 2);
    const request = requestFor(input, turns.slice(start, end), summary);
    let unusable = false;
    const result = await summariseWithFallback({
      ...fallbackInput(input, compactionModel),
      request,
      onEvent: (event) => {
        if (event.type === "compaction-attempt-failed" && event.model === compactionModel)
          unusable ||= event.error.code !== "context_overflow";
        input.onEvent?.(event);
      },
    });
    // Spec rule 7: a compaction model that failed for a reason other than size is not asked again.
    if (unusable) compactionModel = undefined;
    if (!result.ok) {
      if (end - start < 2 || !tooLarge(result.attempts.at(-1))) return result;
      const estimatedTokens = sizes.estimate(start, end, summary);
      const envelope = sizes.envelope(summary);
      limit = Math.min(limit, tightestRejection(result.attempts, request, estimatedTokens, envelope).limit);
      rejectedEnd = end;
      continue;
    }
    summary = result.summary;
    done = {
      ok: true,
      summary: result.summary,
      model: result.model,
      fellBack: (done?.fellBack ?? false) || result.model !== primary,
      chunks: (done?.chunks ?? 0) + 1,
    };
    start = end;
    rejectedEnd = undefined;
  }
  return done as ChunkedSummary;
}

/** Of the size rejections among `attempts`, the one that asks for the smallest next request. */
function tightestRejection(
  attempts: readonly CompactionAttemptFailure[],
  request: CompactionRequest,
  estimatedTokens: number,
  envelopeTokens: number,
): { model: string; limit: number; stated?: StatedSize } {
  const rejections = attempts.filter(tooLarge).map((attempt) => {
    const stated = statedSize(attempt.error, request);
    return {
      model: attempt.model,
      limit: limitAfterRejection(stated, estimatedTokens, envelopeTokens),
      ...optional("stated", stated),
    };
  });
  // The last attempt was a size rejection, so there is at least one; prefer stated numbers on a tie.
  return rejections.reduce((best, next) =>
    next.limit < best.limit || (next.limit === best.limit && best.stated === undefined) ? next : best,
  );
}

/** How chunks are sized: each turn's transcript estimate, and a request's estimate from them. */
interface ChunkSizes {
  limits: { systemPrompt: string; instructions?: string };
  turnTokens: TurnTokens;
  /** The estimate of the request for turns `start` to `end` (exclusive) after `previousSummary`. */
  estimate(start: number, end: number, previousSummary: string | undefined): number;
  /** The estimate of what every request after `previousSummary` carries besides its turns. */
  envelope(previousSummary: string | undefined): number;
}

function chunkSizes(input: SummarisePrefixInput): ChunkSizes {
  const limits = { systemPrompt: input.systemPrompt, ...optional("instructions", input.instructions) };
  const turnTokens = turnTokensOf(input.turns);
  return {
    limits,
    turnTokens,
    envelope: (previousSummary) => envelopeTokens(previousSummary, limits),
    estimate: (start, end, previousSummary) => {
      let tokens = envelopeTokens(previousSummary, limits);
      for (let index = start; index < end; index++) tokens += turnTokens(index);
      return tokens;
    },
  };
}

function tooLarge(attempt: CompactionAttemptFailure | undefined): boolean {
  return attempt?.error.code === "context_overflow";
}

function requestFor(
  input: SummarisePrefixInput,
  turns: readonly SizedTurn[],
  previousSummary: string | undefined,
): CompactionRequest {
  return buildCompactionRequest({
    systemPrompt: input.systemPrompt,
    transcript: serializeTranscript(turns.flatMap((turn) => turn.messages)),
    ...optional("instructions", input.instructions),
    ...optional("previousSummary", previousSummary),
  });
}

function fallbackInput(input: SummarisePrefixInput, compactionModel: string | undefined) {
  return {
    activeModel: input.activeModel,
    summarise: input.summarise,
    ...optional("compactionModel", compactionModel),
    ...optional("signal", input.signal),
    ...optional("onEvent", input.onEvent),
  };
}
