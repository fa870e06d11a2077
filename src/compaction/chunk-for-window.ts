import type { SizedTurn } from "../core/index.js";
import { optional } from "../core/index.js";
import { buildCompactionRequest } from "./build-compaction-request.js";
import { estimateTokens } from "./estimate-tokens.js";
import { serializeTranscript } from "./serialize-transcript.js";

export interface ChunkLimits {
  /** The most a summary request may be (local estimate, system prompt included). */
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
 * `start`. Called once per chunk, with the summary the chunk before it actually wrote. Cutting is
 * shaping, so it errs towards smaller requests; but a turn is never split, and one turn the estimate
 * puts over the limit is still sent alone: only the provider's rejection may say it does not fit
 * (DESIGN "Uncertain sizes have a direction").
 */
export function nextChunk(
  turns: readonly SizedTurn[],
  start: number,
  previousSummary: string | undefined,
  limits: ChunkLimits,
): NextChunk {
  const empty = buildCompactionRequest({
    systemPrompt: limits.systemPrompt,
    transcript: "",
    ...optional("instructions", limits.instructions),
    ...optional("previousSummary", previousSummary),
  });
  let used = estimateTokens(empty.systemPrompt) + estimateTokens(empty.userPrompt);
  let end = start;
  while (end < turns.length) {
    const turn = turns[end] as SizedTurn;
    const tokens = estimateTokens(serializeTranscript(turn.messages));
    if (used + tokens > limits.limitTokens) break;
    used += tokens;
    end++;
  }
  return { end: Math.max(end, start + 1) };
}
