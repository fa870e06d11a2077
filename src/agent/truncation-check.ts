import type { AssistantMessage } from "../core/index.js";

/** Below this share of the local estimate, a reported prompt size means the server dropped input. */
const TRUNCATED_SHARE = 0.5;
/** ...and by at least this many tokens, so short requests never trip it. */
const TRUNCATED_MIN_GAP = 1000;

/**
 * The warning for a server that silently cut an over-long prompt (Ollama does, instead of rejecting
 * it): the response's reported prompt size is far below what panto sent by its local estimate.
 */
export function truncationWarning(message: AssistantMessage, estimatedTokens: number): string | undefined {
  const reported = message.usage?.promptTokens;
  if (reported === undefined || !(reported > 0)) return undefined;
  if (reported >= estimatedTokens * TRUNCATED_SHARE || estimatedTokens - reported < TRUNCATED_MIN_GAP)
    return undefined;
  return (
    `${message.provider}/${message.model} reported a prompt of ${reported} tokens for a request panto ` +
    `estimates at about ${estimatedTokens}: the server may have silently dropped part of the conversation ` +
    "(its context size is smaller than the conversation). Raise the server's context size (Ollama: the " +
    "num_ctx option or OLLAMA_CONTEXT_LENGTH; llama.cpp: -c / --ctx-size), or start a new session."
  );
}
