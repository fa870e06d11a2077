import { APIConnectionError, APIError, APIUserAbortError } from "openai";
import { PantoError } from "../../core/index.js";
import { abortedError, networkError, providerErrorFromResponse } from "../provider-error.js";
import { type ErrorBodyCapture, isNetworkFailure, sdkHttpErrorToPanto } from "../shared/index.js";

/**
 * Classifies anything one Chat Completions attempt threw: HTTP errors with their raw body (the
 * SDK keeps only the inner `error` field, which loses vLLM/Mistral-style bodies) and headers, a
 * chunk carrying `error` inside a 200 stream (OpenRouter), connection failures, and the rest.
 */
export function openAIChatErrorToPanto(
  error: unknown,
  provider: string,
  capture: ErrorBodyCapture,
): PantoError {
  if (error instanceof PantoError) return error;
  if (error instanceof APIUserAbortError) return abortedError(provider);
  if (error instanceof APIConnectionError) return networkError(provider, error.cause ?? error);
  if (error instanceof APIError) {
    if (error.status === undefined) {
      return providerErrorFromResponse({
        body: JSON.stringify({ error: error.error ?? error.message }),
        provider,
      });
    }
    return sdkHttpErrorToPanto(
      error,
      error.error === undefined ? undefined : { error: error.error },
      provider,
      capture,
    );
  }
  if (isNetworkFailure(error)) return networkError(provider, error, "stream failed");
  const message = error instanceof Error ? error.message : String(error);
  return new PantoError("other", `${provider}: ${message}`, { provider, cause: error });
}

/** Whether a rejected request was a server refusing `stream_options` (some compatible servers do). */
export function rejectsStreamOptions(error: unknown, capture: ErrorBodyCapture): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  return (capture.bodyFor(error.headers) ?? error.message).includes("stream_options");
}
