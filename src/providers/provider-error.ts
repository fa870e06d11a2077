import { optional, PantoError } from "../core/index.js";
import { classifyProviderError, overflowInputTokens, saysUnknownModel } from "./classify-provider-error.js";
import { readableErrorMessage } from "./readable-error-message.js";

/** Parses retry-after (seconds or HTTP date) and retry-after-ms headers into milliseconds. */
export function parseRetryAfter(
  headers: Headers | Record<string, string | undefined> | undefined,
): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | undefined =>
    headers instanceof Headers
      ? (headers.get(name) ?? undefined)
      : (headers[name] ?? headers[name.toLowerCase()]);
  const ms = get("retry-after-ms");
  if (ms !== undefined && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = get("retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Turns a failed HTTP response (or an error event carried inside a stream) into a classified PantoError. */
export function providerErrorFromResponse(input: {
  status?: number;
  body: string;
  provider: string;
  headers?: Headers | Record<string, string | undefined>;
}): PantoError {
  const classification = classifyProviderError(
    input.status === undefined ? { body: input.body, provider: input.provider } : input,
  );
  const retryAfterMs = parseRetryAfter(input.headers);
  const statusText = input.status === undefined ? "" : `${input.status} `;
  const body = readableErrorMessage(input.body);
  return new PantoError(classification.code, `${input.provider}: ${statusText}${body}`, {
    retryable: classification.retryable,
    provider: input.provider,
    ...optional("status", input.status),
    ...optional("retryAfterMs", retryAfterMs),
    ...optional("requestTokens", classification.requestTokens),
    ...optional("contextWindow", classification.contextWindow),
    ...(classification.code === "context_overflow"
      ? optional("inputTokens", overflowInputTokens(input))
      : {}),
    ...(classification.code === "invalid_request" && saysUnknownModel(input) ? { unknownModel: true } : {}),
  });
}

/** A request that never got an HTTP answer (refused, reset, dropped mid-stream, timed out). Retryable. */
export function networkError(provider: string, cause: unknown, what = "connection failed"): PantoError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new PantoError("network", `${provider}: ${what}: ${detail}`, { retryable: true, provider, cause });
}

/** Whatever an adapter could not classify (an SDK complaint, a bug): never retried. A PantoError stays as it is. */
export function otherError(provider: string, error: unknown): PantoError {
  if (error instanceof PantoError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new PantoError("other", `${provider}: ${message}`, { provider, cause: error });
}

/** The caller cancelled. */
export function abortedError(provider: string): PantoError {
  return new PantoError("aborted", `${provider}: request aborted`, { provider });
}
