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
