import { APIError } from "openai";
import { PantoError } from "../../core/index.js";
import { networkError, providerErrorFromResponse } from "../provider-error.js";
import { type ErrorBodyCapture, isNetworkFailure, sdkHttpErrorToPanto } from "../shared/index.js";

/**
 * Classifies whatever one Responses request attempt threw. HTTP errors keep their raw body (from
 * the capturing fetch) and headers (retry-after); an `APIError` without a status is the SDK
 * rethrowing an error payload found inside the stream; connection failures are retryable network
 * errors. The caller handles aborts and idle timeouts before this is reached.
 */
export function mapResponsesError(error: unknown, provider: string, capture: ErrorBodyCapture): PantoError {
  if (error instanceof PantoError) return error;
  if (error instanceof APIError && typeof error.status === "number") {
    return sdkHttpErrorToPanto(
      error,
      error.error === undefined ? undefined : { error: error.error },
      provider,
      capture,
    );
  }
  if (error instanceof APIError && error.error !== undefined) {
    return providerErrorFromResponse({ body: JSON.stringify(error.error), provider });
  }
  if (error instanceof APIError || isNetworkFailure(error)) return networkError(provider, error);
  const message = error instanceof Error ? error.message : String(error);
  return new PantoError("other", `${provider}: ${message}`, { provider, cause: error });
}
