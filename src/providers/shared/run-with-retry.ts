import { PantoError, type StreamOptions } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { abortedError, networkError } from "../provider-error.js";
import { resolveRetryOptions, withRetry } from "../with-retry.js";
import { type RequestWatchdog, resolveIdleTimeoutMs, startRequestWatchdog } from "./request-watchdog.js";

/** What one adapter supplies: a single attempt, and how its SDK's errors become PantoErrors. */
export interface RetryableRequest<T> {
  attempt: (watchdog: RequestWatchdog) => Promise<T>;
  toPantoError: (error: unknown) => PantoError;
}

/**
 * Runs one streamed model request with everything every adapter shares: an idle watchdog per
 * attempt, caller aborts reported as `aborted` (never retried), idle timeouts as retryable network
 * errors, SDK errors classified by the adapter, and retries with backoff through `withRetry`.
 */
export async function runWithRetry<T>(
  options: AdapterOptions,
  streamOptions: StreamOptions | undefined,
  request: RetryableRequest<T>,
): Promise<T> {
  const { provider } = options;
  const signal = streamOptions?.signal;
  const idleTimeoutMs = resolveIdleTimeoutMs(options.idleTimeoutMs);
  const once = async (): Promise<T> => {
    if (signal?.aborted) throw abortedError(provider);
    const watchdog = startRequestWatchdog(signal, idleTimeoutMs);
    try {
      return await request.attempt(watchdog);
    } catch (error) {
      throwIfInterrupted(watchdog, signal, provider, idleTimeoutMs);
      throw request.toPantoError(error);
    } finally {
      watchdog.dispose();
    }
  };
  try {
    return await withRetry(once, resolveRetryOptions(options.retry), {
      ...(signal === undefined ? {} : { signal }),
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

/** An attempt that failed because its signal fired: say whether the caller or the idle timer fired it. */
function throwIfInterrupted(
  watchdog: RequestWatchdog,
  signal: AbortSignal | undefined,
  provider: string,
  idleTimeoutMs: number,
): void {
  if (signal?.aborted) throw abortedError(provider);
  if (watchdog.timedOut) {
    throw networkError(provider, new Error(`no data for ${idleTimeoutMs} ms`), "stream idle timeout");
  }
}
