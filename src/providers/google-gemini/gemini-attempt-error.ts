import { PantoError } from "../../core/index.js";
import { networkError, otherError, providerErrorFromResponse } from "../provider-error.js";
import { isNetworkFailure } from "../shared/index.js";

/**
 * Classifies whatever one Gemini attempt threw. HTTP errors, refusals and malformed chunks are
 * PantoErrors already. Once the stream is open, an error payload it carried (`streamError`) says why
 * it broke off; otherwise a connection failing or a body cut off mid-JSON is a network error, and
 * anything else is not retried.
 */
export function geminiAttemptError(error: unknown, provider: string, streamError?: string): PantoError {
  if (error instanceof PantoError) return error;
  if (streamError !== undefined) return providerErrorFromResponse({ body: streamError, provider });
  if (isNetworkFailure(error)) return networkError(provider, error);
  return otherError(provider, error);
}

/**
 * A stream that ended without a finishReason: an error payload it carried (one that did not end
 * it) says why; otherwise the connection was cut short.
 */
export function unfinishedStreamError(provider: string, streamError: string | undefined): PantoError {
  return streamError === undefined
    ? networkError(provider, "stream ended before a finishReason", "truncated stream")
    : providerErrorFromResponse({ body: streamError, provider });
}
