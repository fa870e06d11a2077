import { PantoError } from "../core/index.js";

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  maxRetries?: number;
  /** First backoff delay. Default 1000 ms. */
  baseDelayMs?: number;
  /** Cap for any single wait, retry-after included. Default 60 000 ms. */
  maxDelayMs?: number;
}

export interface RetryHooks {
  signal?: AbortSignal;
  onRetry?: (info: { attempt: number; delayMs: number; error: PantoError }) => void;
}

/** Resolves retry settings, letting PANTO_RETRY_BASE_MS / PANTO_MAX_RETRIES tune them (tests use tiny delays). */
export function resolveRetryOptions(
  options: RetryOptions = {},
  env: NodeJS.ProcessEnv = process.env,
): Required<RetryOptions> {
  const fromEnv = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === "") return undefined;
    const value = Number(raw);
    return Number.isFinite(value) && value >= 0 ? value : undefined;
  };
  return {
    maxRetries: options.maxRetries ?? fromEnv("PANTO_MAX_RETRIES") ?? 4,
    baseDelayMs: options.baseDelayMs ?? fromEnv("PANTO_RETRY_BASE_MS") ?? 1000,
    maxDelayMs: options.maxDelayMs ?? fromEnv("PANTO_RETRY_MAX_MS") ?? 60_000,
  };
}

/** The wait before retry number `attempt` (1-based): retry-after when given, else capped exponential backoff with jitter. */
export function retryDelayMs(attempt: number, error: PantoError, options: Required<RetryOptions>): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, options.maxDelayMs);
  const exponential = options.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.8 + Math.random() * 0.4;
  return Math.min(Math.round(exponential * jitter), options.maxDelayMs);
}

/**
 * Runs `attempt` and retries it while it fails with a retryable PantoError (rate limits, overloads,
 * 5xx, dropped connections). Overflows and other client errors are never retried.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  options: Required<RetryOptions>,
  hooks: RetryHooks = {},
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof PantoError) || !error.retryable || tries >= options.maxRetries) throw error;
      if (hooks.signal?.aborted) throw new PantoError("aborted", "request aborted", { cause: error });
      const delayMs = retryDelayMs(tries + 1, error, options);
      hooks.onRetry?.({ attempt: tries + 1, delayMs, error });
      await sleep(delayMs, hooks.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new PantoError("aborted", "request aborted"));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new PantoError("aborted", "request aborted"));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
