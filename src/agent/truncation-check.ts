import type { AssistantMessage } from "../core/index.js";
import type { AcceptedRequest } from "./provider-figures.js";

/**
 * What the provider's own numbers say about a response's prompt: the earlier request it accepted on
 * the same context (which this one only added to), and the context size the server reports.
 */
export interface TruncationEvidence {
  accepted?: AcceptedRequest | undefined;
  /** The server's context size: as it reports it (llama.cpp /props, Ollama...) or as an overflow stated it. */
  serverWindow?: number | undefined;
}

/**
 * The warning for a server that silently cut an over-long prompt (Ollama does, instead of rejecting
 * it), given only on the provider's own numbers, never on panto's estimate: the reported prompt is
 * pinned at the server's context size or exactly half of it (where Ollama cuts), or it did not grow
 * past the prompt of an earlier request on the same context although the conversation only grew
 * since (that request's answer and at least one message were added, and nothing was removed).
 */
export function truncationWarning(
  message: AssistantMessage,
  evidence: TruncationEvidence,
): string | undefined {
  const reported = message.usage?.promptTokens;
  if (reported === undefined || !(reported > 0)) return undefined;
  const finding =
    pinnedFinding(reported, evidence.serverWindow) ?? shrankFinding(reported, evidence.accepted);
  if (finding === undefined) return undefined;
  return (
    `${message.provider}/${message.model} reported a prompt of ${reported} tokens, ${finding}: the server ` +
    "may have silently dropped part of the conversation (its context size is smaller than the " +
    "conversation). Raise the server's context size (Ollama: the num_ctx option or " +
    "OLLAMA_CONTEXT_LENGTH; llama.cpp: -c / --ctx-size), or start a new session."
  );
}

function pinnedFinding(reported: number, window: number | undefined): string | undefined {
  if (window === undefined || !(window > 0)) return undefined;
  if (reported === window) return `exactly its context size of ${window} tokens`;
  if (reported === Math.floor(window / 2) || reported === Math.ceil(window / 2))
    return `exactly half its context size of ${window} tokens`;
  return undefined;
}

function shrankFinding(reported: number, accepted: AcceptedRequest | undefined): string | undefined {
  if (accepted === undefined || reported > accepted.promptTokens) return undefined;
  return `no more than the ${accepted.promptTokens} it reported for an earlier request although the conversation only grew since`;
}
