import { ApiError } from "@google/genai";
import { PantoError } from "../../core/index.js";
import { networkError, otherError, providerErrorFromResponse } from "../provider-error.js";
import { isNetworkFailure } from "../shared/is-network-failure.js";
import type { GeminiFailureCapture } from "./capture-gemini-failures.js";

/**
 * Classifies whatever one Gemini request attempt threw. A failed HTTP response is classified from
 * its raw body, status and headers as captured by the fetch wrapper (the SDK error as a fallback).
 * Once the stream is open, an ApiError is the SDK reacting to an error payload inside the stream:
 * classified from that payload, without a status. Streams cut off mid-JSON are network errors.
 */
export function mapGeminiError(
  error: unknown,
  context: { provider: string; capture: GeminiFailureCapture; streaming: boolean },
): PantoError {
  const { provider, capture, streaming } = context;
  if (error instanceof PantoError) return error;
  const httpFailure = capture.httpFailure();
  if (!streaming && httpFailure !== undefined) return providerErrorFromResponse({ ...httpFailure, provider });
  const streamError = capture.streamError();
  if (streaming && streamError !== undefined)
    return providerErrorFromResponse({ body: streamError, provider });
  if (error instanceof ApiError) {
    const body = error.message.replace(/^got status: [^.]*\.\s*/, "");
    return providerErrorFromResponse(
      streaming ? { body, provider } : { status: error.status, body, provider },
    );
  }
  if (isNetworkFailure(error) || isCutOffStream(error)) return networkError(provider, error);
  return otherError(provider, error);
}

/**
 * A stream that ended without a finishReason: an error payload it carried (one the SDK did not
 * raise) says why; otherwise the connection was cut short.
 */
export function unfinishedStreamError(provider: string, capture: GeminiFailureCapture): PantoError {
  const streamError = capture.streamError();
  return streamError === undefined
    ? networkError(provider, "stream ended before a finishReason", "truncated stream")
    : providerErrorFromResponse({ body: streamError, provider });
}

/** The SDK's own words for a stream that ended inside a chunk or sent half a JSON document. */
function isCutOffStream(error: unknown): boolean {
  return (
    error instanceof Error && /^(incomplete json segment|exception parsing stream chunk)/i.test(error.message)
  );
}
