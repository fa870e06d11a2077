import { PantoError } from "../core/index.js";
import type { CompactionRequest } from "./build-compaction-request.js";

/** The model call the orchestrator is handed: one request to `modelId` ("provider/model"), summary text back. */
export type SummariseFn = (
  modelId: string,
  request: CompactionRequest,
  signal?: AbortSignal,
) => Promise<{ text: string }>;

/** Named noun-action, like the stream events. */
export type CompactionEvent =
  | { type: "compaction-attempt"; model: string; attempt: 1 | 2 }
  | { type: "compaction-attempt-failed"; model: string; error: PantoError };

export interface CompactionAttemptFailure {
  model: string;
  error: PantoError;
}

export type SummaryResult =
  | { ok: true; summary: string; model: string; fellBack: boolean }
  | { ok: false; error: PantoError; attempts: CompactionAttemptFailure[] };

export interface SummariseWithFallbackInput {
  request: CompactionRequest;
  activeModel: string;
  compactionModel?: string;
  summarise: SummariseFn;
  signal?: AbortSignal;
  onEvent?: (event: CompactionEvent) => void;
}

/**
 * Asks `compactionModel` (else the active model) for the summary. When a configured compaction
 * model that differs from the active one fails for any reason (an error of any code, or an empty
 * summary), asks the active model exactly once more (spec rule 7). An abort stops at once, without
 * the fallback.
 */
export async function summariseWithFallback(input: SummariseWithFallbackInput): Promise<SummaryResult> {
  const primary = input.compactionModel ?? input.activeModel;
  const models = primary === input.activeModel ? [primary] : [primary, input.activeModel];
  const attempts: CompactionAttemptFailure[] = [];
  for (const [index, model] of models.entries()) {
    if (input.signal?.aborted) return { ok: false, error: abortError(), attempts };
    input.onEvent?.({ type: "compaction-attempt", model, attempt: index === 0 ? 1 : 2 });
    const outcome = await attempt(model, input);
    if (typeof outcome === "string") return { ok: true, summary: outcome, model, fellBack: index > 0 };
    attempts.push({ model, error: outcome });
    input.onEvent?.({ type: "compaction-attempt-failed", model, error: outcome });
    if (outcome.code === "aborted" || input.signal?.aborted)
      return { ok: false, error: abortError(outcome), attempts };
  }
  const last = attempts.at(-1) as CompactionAttemptFailure;
  return { ok: false, error: last.error, attempts };
}

/** One attempt: the trimmed summary, or the failure as a PantoError. */
async function attempt(model: string, input: SummariseWithFallbackInput): Promise<string | PantoError> {
  try {
    const { text } = await input.summarise(model, input.request, input.signal);
    const summary = typeof text === "string" ? text.trim() : "";
    return summary === "" ? new PantoError("other", `${model}: empty summary`) : summary;
  } catch (thrown) {
    if (thrown instanceof PantoError) return thrown;
    if (input.signal?.aborted) return abortError(thrown);
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return new PantoError("other", `${model}: ${message}`, { cause: thrown });
  }
}

function abortError(cause?: unknown): PantoError {
  if (cause instanceof PantoError && cause.code === "aborted") return cause;
  return new PantoError("aborted", "compaction aborted", cause === undefined ? {} : { cause });
}
