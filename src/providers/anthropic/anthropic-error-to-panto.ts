import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { PantoError } from "../../core/index.js";
import { abortedError, networkError, providerErrorFromResponse } from "../provider-error.js";
import { type ErrorBodyCapture, isNetworkFailure, sdkHttpErrorToPanto } from "../shared/index.js";

/**
 * Classifies anything one Anthropic attempt threw: HTTP errors with their raw body and headers
 * (retry-after), `event: error` payloads from inside a stream, connection failures, and the rest.
 */
export function anthropicErrorToPanto(
  error: unknown,
  provider: string,
  capture: ErrorBodyCapture,
): PantoError {
  if (error instanceof PantoError) return error;
  if (error instanceof APIUserAbortError) return abortedError(provider);
  if (error instanceof APIConnectionError) return networkError(provider, error.cause ?? error);
  if (error instanceof APIError) {
    if (error.status === undefined) {
      // An `event: error` inside a 200 stream: the SDK hands over the parsed payload.
      return providerErrorFromResponse({ body: JSON.stringify(error.error ?? error.message), provider });
    }
    return sdkHttpErrorToPanto(error, error.error, provider, capture);
  }
  if (isNetworkFailure(error)) return networkError(provider, error, "stream failed");
  const message = error instanceof Error ? error.message : String(error);
  return new PantoError("other", `${provider}: ${message}`, { provider, cause: error });
}
