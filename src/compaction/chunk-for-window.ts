import type { SizedTurn } from "../core/index.js";
import { optional } from "../core/index.js";
import { buildCompactionRequest } from "./build-compaction-request.js";
import { estimateTokens } from "./estimate-tokens.js";
import { serializeTranscript } from "./serialize-transcript.js";

export interface ChunkLimits {
  /**
   * The most a summary request may be (local estimate, system prompt included), as the provider's
   * figures put it (`summary-fit.ts`): never the estimate against a window on its own.
   */
  limitTokens: number;
  /** COMPACTION.md. */
  systemPrompt: string;
  /** `/compact` arguments, appended to the system prompt. */
  instructions?: string;
}

/** Turns `start` to `end` (exclusive) make the next summary request. */
export interface NextChunk {
  end: number;
}

/**
 * The longest run of whole turns from `start` whose summary request (system prompt, envelope, the
 * previous summary, transcript) is estimated within the limit, and at least the one turn at
 * `start`. Called once per chunk, with the summary the chunk before it actually wrote. The limit
 * comes from the provider's figures in the estimate's units, so the estimate only places the cut;
 * a turn is never split, and one turn over the limit is still sent alone: only the provider's
 * rejection may say it does not fit (issue 33: the provider decides what is sent).
 */
export function nextChunk(
  turns: readonly SizedTurn[],
  start: number,
  previousSummary: string | undefined,
  limits: ChunkLimits,
  turnTokens: TurnTokens = turnTokensOf(turns),
): NextChunk {
  let used = envelopeTokens(previousSummary, limits);
  let end = start;
  while (end < turns.length) {
    const tokens = turnTokens(end);
    if (used + tokens > limits.limitTokens) break;
    used += tokens;
    end++;
  }
  return { end: Math.max(end, start + 1) };
}

/** The estimate of turn `index`'s transcript. */
export type TurnTokens = (index: number) => number;

/** Each turn's transcript estimate, worked out once when first asked for, so cutting again is cheap. */
export function turnTokensOf(turns: readonly SizedTurn[]): TurnTokens {
  const known: number[] = [];
  return (index) => {
    let tokens = known[index];
    if (tokens === undefined) {
      tokens = estimateTokens(serializeTranscript((turns[index] as SizedTurn).messages));
      known[index] = tokens;
    }
    return tokens;
  };
}

/** The estimate of a summary request with an empty transcript: system prompt, envelope, previous summary. */
export function envelopeTokens(
  previousSummary: string | undefined,
  limits: Omit<ChunkLimits, "limitTokens">,
): number {
  const empty = buildCompactionRequest({
    systemPrompt: limits.systemPrompt,
    transcript: "",
    ...optional("instructions", limits.instructions),
    ...optional("previousSummary", previousSummary),
  });
  return estimateTokens(empty.systemPrompt) + estimateTokens(empty.userPrompt);
}
