import { ApiError } from "@google/genai";
import { PantoError } from "../../core/index.js";
import { networkError, otherError, providerErrorFromResponse } from "../provider-error.js";
import { isNetworkFailure } from "../shared/is-network-failure.js";

/** The raw answer of a failed HTTP request: what the classifier and retry-after need. */
export interface HttpFailure {
  status: number;
  body: string;
  headers: Headers;
}

/**
 * Classifies whatever a model listing through the SDK threw (the SDK, and with it this file, loads
 * only to list models). A failed HTTP response is classified from its raw body, status and headers
 * as the fetch wrapper captured them; the SDK's ApiError, which keeps a re-serialised body and no
 * retry-after, is the fallback.
 */
export function mapGeminiError(
  error: unknown,
  context: { provider: string; httpFailure: HttpFailure | undefined },
): PantoError {
  const { provider, httpFailure } = context;
  if (error instanceof PantoError) return error;
  if (httpFailure !== undefined) return providerErrorFromResponse({ ...httpFailure, provider });
  if (error instanceof ApiError) {
    const body = error.message.replace(/^got status: [^.]*\.\s*/, "");
    return providerErrorFromResponse({ status: error.status, body, provider });
  }
  if (isNetworkFailure(error)) return networkError(provider, error);
  return otherError(provider, error);
}
