import type { AssistantMessage } from "../core/index.js";
import type { AcceptedRequest } from "./provider-figures.js";

/**
 * What the provider's own numbers say about a response's prompt: the earlier request it accepted on
 * the same context (which this one only added to), and the context size the server reports.
 */
export interface TruncationEvidence {
  accepted?: AcceptedRequest | undefined;
  /**
   * The context size the server itself reports (llama.cpp /props, Ollama, LM Studio). Not a window
   * an overflow stated: a server that rejects over-long prompts is not one that cuts them.
   */
  serverWindow?: number | undefined;
}

/**
 * The warning for a server that silently cut an over-long prompt (Ollama does, instead of rejecting
 * it), given only on the provider's own numbers, never on panto's estimate: the reported prompt is
 * exactly the context size the server reports (no room left for an answer: it was cut to fit), or
 * it did not grow past the prompt of an earlier request on the same context although the
 * conversation only grew since (that request's answer and at least one message were added, and
 * nothing was removed), which is how a prompt pinned at half the context size (where Ollama cuts)
 * shows itself from the second request on. A single prompt at half the size proves nothing.
 */
export function truncationWarning(
  message: AssistantMessage,
  evidence: TruncationEvidence,
): string | undefined {
  const reported = message.usage?.promptTokens;
  if (reported === undefined || !(reported > 0)) return undefined;
  const finding =
    pinnedFinding(reported, evidence.serverWindow) ??
    shrankFinding(reported, evidence.accepted, evidence.serverWindow);
  if (finding === undefined) return undefined;
  return (
    `${message.provider}/${message.model} reported a prompt of ${reported} tokens, ${finding}: the server ` +
    "may have silently dropped part of the conversation (its context size is smaller than the " +
    "conversation). Raise the server's context size (Ollama: the num_ctx option or " +
    "OLLAMA_CONTEXT_LENGTH; llama.cpp: -c / --ctx-size), or start a new session."
  );
}

function pinnedFinding(reported: number, window: number | undefined): string | undefined {
  if (window === undefined || reported !== window) return undefined;
  return `exactly its context size of ${window} tokens`;
}

function shrankFinding(
  reported: number,
  accepted: AcceptedRequest | undefined,
  window: number | undefined,
): string | undefined {
  if (accepted === undefined || reported > accepted.promptTokens) return undefined;
  const half =
    window !== undefined && (reported === Math.floor(window / 2) || reported === Math.ceil(window / 2))
      ? `, half its context size of ${window} tokens`
      : "";
  return `no more than the ${accepted.promptTokens} it reported for an earlier request although the conversation only grew since${half}`;
}
