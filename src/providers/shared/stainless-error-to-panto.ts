import { PantoError } from "../../core/index.js";
import { abortedError, networkError, otherError, providerErrorFromResponse } from "../provider-error.js";
import { type ErrorBodyCapture, sdkHttpErrorToPanto } from "./capture-error-bodies.js";
import { isNetworkFailure } from "./is-network-failure.js";

/** The fields of an `APIError` that the two Stainless-generated SDKs (Anthropic's, OpenAI's) share. */
export interface StainlessApiError extends Error {
  readonly status: number | undefined;
  readonly headers: Headers | undefined;
  readonly error: unknown;
}

/**
 * One Stainless SDK's error classes, passed in so that this file imports no SDK (an adapter loads
 * only its own), and how that SDK's parsed `error` field maps back to the body the provider sent.
 */
export interface StainlessErrors {
  APIError: abstract new (...args: never[]) => StainlessApiError;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  /**
   * The provider's error body rebuilt from the SDK's parsed `error` field: Anthropic's SDK keeps the
   * whole body, OpenAI's only the inner `error` object.
   */
  bodyOf(parsed: unknown): unknown;
}

/**
 * Classifies anything one attempt through a Stainless SDK threw: HTTP errors from their raw body
 * (captured, since the SDKs keep only part of it) and headers (retry-after), an error payload the
 * SDK raised from inside a 200 stream (an `APIError` without a status), connection failures, the
 * caller's abort, and the rest.
 */
export function stainlessErrorToPanto(
  error: unknown,
  context: { provider: string; capture: ErrorBodyCapture; errors: StainlessErrors },
): PantoError {
  const { provider, capture, errors } = context;
  if (error instanceof PantoError) return error;
  if (error instanceof errors.APIUserAbortError) return abortedError(provider);
  if (error instanceof errors.APIConnectionError) return networkError(provider, error.cause ?? error);
  if (error instanceof errors.APIError) {
    if (error.status === undefined) {
      return providerErrorFromResponse({
        body: JSON.stringify(errors.bodyOf(error.error ?? error.message)),
        provider,
      });
    }
    const parsed = error.error === undefined ? undefined : errors.bodyOf(error.error);
    const { status, headers, message } = error;
    return sdkHttpErrorToPanto({ status, headers, message }, parsed, provider, capture);
  }
  if (isNetworkFailure(error)) return networkError(provider, error, "stream failed");
  return otherError(provider, error);
}
