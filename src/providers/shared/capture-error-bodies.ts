import type { PantoError } from "../../core/index.js";
import { optional } from "../../core/index.js";
import { providerErrorFromResponse } from "../provider-error.js";

/**
 * A fetch wrapper that keeps the raw text of every failed HTTP response, keyed by the response's
 * Headers object. The SDKs parse error bodies and keep only part of them (the OpenAI SDK drops all
 * but the inner `error` field), while the classifier wants the body verbatim; SDK errors carry the
 * same Headers object, so `bodyFor(error.headers)` finds it again.
 */
export interface ErrorBodyCapture {
  readonly fetch: typeof fetch;
  bodyFor(headers: Headers | undefined): string | undefined;
}

/** Wraps `baseFetch` (default: the global fetch) so failed responses' bodies can be looked up later. */
export function captureErrorBodies(baseFetch: typeof fetch = globalThis.fetch): ErrorBodyCapture {
  const bodies = new WeakMap<Headers, string>();
  const capturingFetch: typeof fetch = async (input, init) => {
    const response = await baseFetch(input, init);
    if (!response.ok) bodies.set(response.headers, await response.clone().text());
    return response;
  };
  return {
    fetch: capturingFetch,
    bodyFor: (headers) => (headers === undefined ? undefined : bodies.get(headers)),
  };
}

/** An SDK's error for a failed HTTP response, in the fields the Anthropic and OpenAI SDKs share. */
export interface SdkHttpError {
  status: number;
  headers: Headers | undefined;
  message: string;
}

/**
 * Classifies an SDK's HTTP error from the best available body (see `httpErrorBody`) and its headers
 * (retry-after). `parsed` is the SDK's parsed error object, shaped as the provider sent it.
 */
export function sdkHttpErrorToPanto(
  error: SdkHttpError,
  parsed: unknown,
  provider: string,
  capture: ErrorBodyCapture,
): PantoError {
  const body = httpErrorBody({
    captured: capture.bodyFor(error.headers),
    parsed,
    message: error.message,
    status: error.status,
  });
  return providerErrorFromResponse({
    status: error.status,
    body,
    provider,
    ...optional("headers", error.headers),
  });
}

/**
 * The best available rendering of an HTTP error body: the captured raw text, else the SDK's parsed
 * error object, else the SDK message without its "<status> " prefix.
 */
function httpErrorBody(input: {
  captured: string | undefined;
  parsed: unknown;
  message: string;
  status: number;
}): string {
  if (input.captured !== undefined) return input.captured;
  if (input.parsed !== undefined && input.parsed !== null) return JSON.stringify(input.parsed);
  const prefix = `${input.status} `;
  return input.message.startsWith(prefix) ? input.message.slice(prefix.length) : input.message;
}
