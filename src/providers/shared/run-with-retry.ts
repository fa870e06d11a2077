import { optional, PantoError, type StreamOptions } from "../../core/index.js";
import { looksSecretName, SecretRedactor } from "../../secrets/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { abortedError } from "../provider-error.js";
import { resolveRetryOptions, withRetry } from "../with-retry.js";
import { describeEndpoint } from "./describe-endpoint.js";
import {
  type RequestTimeouts,
  type RequestWatchdog,
  resolveTimeouts,
  startRequestWatchdog,
  TIMEOUT_CONFIG_KEYS,
} from "./request-watchdog.js";

/**
 * Timed-out attempts are retried at most this often per request, whatever `maxRetries` says...
 */
export const MAX_TIMEOUT_RETRIES = 1;
/**
 * ...and only while the request is younger than this. A server that never answers is reported
 * after two first-byte timeouts and one backoff (about a minute with the defaults); a stream that
 * stalls after its headers (or sends only keepalives) after one idle timeout (two minutes), since
 * waiting that long a second time helps no one. With the defaults no silent server keeps a request
 * open for more than three minutes.
 */
export const TIMEOUT_RETRY_WINDOW_MS = 60_000;

/** What one adapter supplies: a single attempt, and how its SDK's errors become PantoErrors. */
export interface RetryableRequest<T> {
  attempt: (watchdog: RequestWatchdog) => Promise<T>;
  toPantoError: (error: unknown) => PantoError;
  /** The base URL requests go to, named (as host:port) in timeout and connection errors. */
  endpoint: string;
}

/**
 * Runs one streamed model request with everything every adapter shares: the deadlines of each
 * attempt (first byte, idle, whole request), caller aborts reported as `aborted` at once (never
 * retried), timeouts as network errors naming the deadline and the endpoint (retried at most
 * MAX_TIMEOUT_RETRIES times, within TIMEOUT_RETRY_WINDOW_MS), SDK errors classified by the
 * adapter (a refused connection to this machine not retried, see loopbackRefusal), retries with backoff through `withRetry`, and every error message passed through the
 * adapter's own redaction and `options.redact`.
 */
export async function runWithRetry<T>(
  options: AdapterOptions,
  streamOptions: StreamOptions | undefined,
  request: RetryableRequest<T>,
): Promise<T> {
  const { provider } = options;
  const signal = streamOptions?.signal;
  const timeouts = resolveTimeouts(options);
  const endpoint = describeEndpoint(request.endpoint);
  const redact = adapterRedact(options);
  const finish = (error: PantoError): PantoError => redactError(withEndpoint(error, endpoint), redact);
  let timedOutAttempts = 0;
  const started = Date.now();
  const once = async (): Promise<T> => {
    if (signal?.aborted) throw abortedError(provider);
    const watchdog = startRequestWatchdog(signal, timeouts);
    try {
      return await request.attempt(watchdog);
    } catch (error) {
      if (signal?.aborted) throw abortedError(provider);
      if (watchdog.timeout !== undefined) {
        timedOutAttempts++;
        const retryable =
          timedOutAttempts <= MAX_TIMEOUT_RETRIES && Date.now() - started < TIMEOUT_RETRY_WINDOW_MS;
        throw finish(timeoutError(provider, watchdog, endpoint, retryable));
      }
      const classified = request.toPantoError(error);
      if (classified.code !== "network") throw finish(classified);
      // Loaded on a network failure only: nothing of it is on the start-up path.
      const { loopbackRefusal } = await import("./loopback-refusal.js");
      throw finish(loopbackRefusal(classified, request.endpoint) ?? classified);
    } finally {
      watchdog.dispose();
    }
  };
  try {
    return await withRetry(once, resolveRetryOptions(options.retry), {
      ...optional("signal", signal),
      onRetry: (info) =>
        streamOptions?.onEvent?.({
          type: "retry-wait",
          attempt: info.attempt,
          delayMs: info.delayMs,
          reason: info.error.message,
        }),
    });
  } catch (error) {
    // withRetry reports an abort during its backoff sleep without the provider name.
    if (error instanceof PantoError && error.code === "aborted") throw abortedError(provider);
    throw error;
  }
}

/** A deadline fired: say which, after how long, at which endpoint, and the config key that sets it. */
function timeoutError(
  provider: string,
  watchdog: RequestWatchdog,
  endpoint: string | undefined,
  retryable: boolean,
): PantoError {
  const kind = watchdog.timeout ?? "request";
  const ms = timeoutMs(watchdog.timeouts, kind);
  const where = endpoint === undefined ? "" : ` from ${endpoint}`;
  const what =
    kind === "first-byte"
      ? `no response${where} within ${ms} ms`
      : kind === "idle"
        ? `no content${where} for ${ms} ms`
        : `the request${endpoint === undefined ? "" : ` to ${endpoint}`} took longer than ${ms} ms`;
  return new PantoError("network", `${provider}: ${kind} timeout: ${what} (${TIMEOUT_CONFIG_KEYS[kind]})`, {
    retryable,
    provider,
  });
}

function timeoutMs(timeouts: RequestTimeouts, kind: keyof typeof TIMEOUT_CONFIG_KEYS): number {
  return kind === "first-byte"
    ? timeouts.firstByteMs
    : kind === "idle"
      ? timeouts.idleMs
      : timeouts.requestMs;
}

/**
 * A connection failure ("fetch failed") names the endpoint it could not reach, host and port only,
 * and the system's error code when there is one (ECONNREFUSED, ENOTFOUND...).
 */
function withEndpoint(error: PantoError, endpoint: string | undefined): PantoError {
  if (error.code !== "network" || endpoint === undefined || error.message.includes(endpoint)) return error;
  const code = systemErrorCode(error.cause);
  return copyWithMessage(
    error,
    `${error.message} (endpoint ${endpoint}${code === undefined ? "" : `, ${code}`})`,
  );
}

function systemErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^E[A-Z]+$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * Defence in depth: the adapter's own key and secret-looking header values are redacted even when
 * the caller passed no redactor, then whatever the caller's redactor knows.
 */
function adapterRedact(options: AdapterOptions): (text: string) => string {
  const own = new SecretRedactor();
  own.add("api key", options.apiKey);
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (looksSecretName(name)) own.add(`${name} header`, value);
  }
  const callers = options.redact;
  return callers === undefined ? own.redact : (text) => own.redact(callers(text));
}

/** The error with every known secret removed from its message (the adapter's own key included). */
function redactError(error: PantoError, redact: ((text: string) => string) | undefined): PantoError {
  if (redact === undefined) return error;
  const message = redact(error.message);
  return message === error.message ? error : copyWithMessage(error, message);
}

function copyWithMessage(error: PantoError, message: string): PantoError {
  return new PantoError(error.code, message, {
    retryable: error.retryable,
    ...optional("status", error.status),
    ...optional("provider", error.provider),
    ...optional("retryAfterMs", error.retryAfterMs),
    ...(error.nothingListening ? { nothingListening: true } : {}),
    cause: error.cause,
  });
}
