import type { PantoError } from "../core/index.js";
import type { CompactionRequest } from "./build-compaction-request.js";
import { estimateTokens } from "./estimate-tokens.js";
import { textTokensUpperBound } from "./token-upper-bound.js";

/**
 * Whether a summary request is sent, and how large its chunks are (issue 33). The rule: panto's
 * estimate may shape what is kept verbatim (spec rule 8, with its upper bound), but whether a
 * summary request is sent is decided by the provider's answer, never by the estimate. So the whole
 * transcript goes out in one request (spec: "v1 does not try to predict whether the compaction
 * model will fit ahead of time"), unless the provider's own figures already prove it cannot fit; a
 * rejection's numbers then size the chunks, in the provider's units. Where the figures disagree with
 * the estimate, the provider wins.
 */

/** What the provider's figures say about the model a summary is asked of first. */
export interface SummariserFigures {
  /** "provider/model". */
  model: string;
  /** Its context window, as its provider stated it. */
  contextWindow: number;
  /**
   * The smallest ratio of the provider's count to panto's estimate seen for that model (an
   * overflow's stated size, a reported prompt), each over panto's estimate of the same request.
   */
  leastRatio: number;
}

/** Part of the window a chunk leaves free: chunks of one kind of request count alike, but not exactly. */
export const CHUNK_MARGIN = 0.05;
/**
 * How far the ratio of one request may be from another's (a chat request's, counted with tool
 * definitions, against a summary request's): the whole is proven too large only beyond it.
 */
export const RATIO_SPREAD = 0.1;
/** What a provider may wrap around a request it counts (a chat template, a tool preamble), at most. */
const PROVIDER_PREAMBLE_BOUND = 4096;

/** panto's estimate of a summary request: its system prompt and its user prompt. */
export function estimateRequest(request: CompactionRequest): number {
  return estimateTokens(request.systemPrompt) + estimateTokens(request.userPrompt);
}

/**
 * True only when even the smallest ratio the provider's figures gave for the model puts the
 * request of `estimatedTokens` over its window, beyond the spread ratios of different requests may
 * have: then sending it whole would only be rejected. Anything less leaves it to the provider.
 */
export function provenTooLarge(estimatedTokens: number, figures: SummariserFigures): boolean {
  return leastTokens(estimatedTokens, figures) * (1 - RATIO_SPREAD) > figures.contextWindow;
}

/** The least the provider could count for a request of `estimatedTokens`, by its smallest ratio. */
export function leastTokens(estimatedTokens: number, figures: SummariserFigures): number {
  return Math.ceil(estimatedTokens * figures.leastRatio);
}

/** The largest chunk request (local estimate) the figures that proved the whole too large allow. */
export function upFrontLimit(figures: SummariserFigures): number {
  return Math.max(1, Math.floor((figures.contextWindow * (1 - CHUNK_MARGIN)) / figures.leastRatio));
}

/** What a rejected summary request's body stated, when it can be that request's count. */
export interface StatedSize {
  /** The rejected request's size (its input alone when the body says so). */
  requestTokens: number;
  contextWindow: number;
  /** Tokens the provider set aside for the answer within the window, when the body separated them. */
  reservedTokens: number;
}

/**
 * The sizes a summary request's rejection stated, or undefined when it stated no size and window,
 * or a size its bytes cannot reach (a proxy's or another request's numbers: no evidence about it).
 */
export function statedSize(error: PantoError, request: CompactionRequest): StatedSize | undefined {
  const requestTokens = error.inputTokens ?? error.requestTokens;
  const { contextWindow } = error;
  if (requestTokens === undefined || contextWindow === undefined || !(requestTokens > 0)) return undefined;
  const bound =
    PROVIDER_PREAMBLE_BOUND +
    textTokensUpperBound(request.systemPrompt) +
    textTokensUpperBound(request.userPrompt);
  if (requestTokens > bound) return undefined;
  const reserved =
    error.inputTokens !== undefined && error.requestTokens !== undefined
      ? Math.max(0, error.requestTokens - error.inputTokens)
      : 0;
  return { requestTokens, contextWindow, reservedTokens: reserved };
}

/**
 * The largest next request (local estimate) after a request of `estimatedTokens` was rejected: from
 * the provider's numbers, in its units (its count per estimated token, the window less what it
 * reserved for the answer, less a small margin), so a transcript of T provider tokens against a
 * usable window W takes about T / W chunks; without usable numbers, or when they would not shrink
 * the request, the fixed part of the request (`envelopeTokens`: the prompts and the previous summary,
 * which every chunk carries again) and half of the transcript, so that where the fixed part is a
 * large share of the window, halving does not leave each chunk a sliver of transcript. Always below
 * `estimatedTokens`, so cutting again always makes progress.
 */
export function limitAfterRejection(
  stated: StatedSize | undefined,
  estimatedTokens: number,
  envelopeTokens = 0,
): number {
  const envelope = Math.min(Math.max(0, envelopeTokens), estimatedTokens - 1);
  const half = envelope + Math.max(1, Math.floor((estimatedTokens - envelope) / 2));
  const fallback = half < estimatedTokens ? half : Math.max(1, Math.floor(estimatedTokens / 2));
  if (stated === undefined || !(estimatedTokens > 0)) return fallback;
  const ratio = stated.requestTokens / estimatedTokens;
  const room = (stated.contextWindow - stated.reservedTokens) * (1 - CHUNK_MARGIN);
  const limit = Math.floor(room / ratio);
  return limit > 0 && limit < estimatedTokens ? limit : fallback;
}
