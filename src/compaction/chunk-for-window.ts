import type { SizedTurn } from "../core/index.js";
import { optional } from "../core/index.js";
import { buildCompactionRequest } from "./build-compaction-request.js";
import { estimateTokens } from "./estimate-tokens.js";
import { serializeTranscript } from "./serialize-transcript.js";

/** How far over the limit (which holds back a margin and the summary's room) a request may go. */
const LONE_TURN_SLACK = 1.35;

export interface ChunkLimits {
  /** The most a summary request may be (local estimate, system prompt included). */
  limitTokens: number;
  /** COMPACTION.md. */
  systemPrompt: string;
  /** `/compact` arguments, appended to the system prompt. */
  instructions?: string;
}

export type NextChunk =
  /** Turns `start` to `end` (exclusive) make one request that fits. */
  | { ok: true; end: number }
  /** Turn `start` alone does not fit beside the previous summary: no request with it can be sent. */
  | { ok: false; tokens: number };

/**
 * The longest run of whole turns from `start` whose summary request (system prompt, envelope, the
 * previous summary, transcript) is estimated within the limit. Called once per chunk, with the
 * summary the chunk before it actually wrote, so no request is sent that is known not to fit.
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
  if (end > start) return { ok: true, end };
  const first = turns[start] as SizedTurn;
  const tokens = used + estimateTokens(serializeTranscript(first.messages));
  // A lone turn is still sent when only the margin and summary allowance the limit holds back (and
  // the estimate's tendency to err large) stand in the way; beyond that it is refused unsent.
  return tokens <= limits.limitTokens * LONE_TURN_SLACK
    ? { ok: true, end: start + 1 }
    : { ok: false, tokens };
}
