/** Default idle timeout for a stream: two minutes without a byte of progress. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** The idle timeout: the adapter option, else PANTO_STREAM_IDLE_TIMEOUT_MS, else the default. */
export function resolveIdleTimeoutMs(
  value: number | undefined,
  env: NodeJS.ProcessEnv = process.env,
): number {
  if (value !== undefined && value > 0) return value;
  const fromEnv = Number(env.PANTO_STREAM_IDLE_TIMEOUT_MS);
  return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_IDLE_TIMEOUT_MS;
}

/**
 * One request attempt's abort signal: it fires when the caller aborts or when nothing has arrived
 * for `idleTimeoutMs` (a stream that never ends). `touch` on every chunk; `dispose` when done.
 */
export interface RequestWatchdog {
  readonly signal: AbortSignal;
  /** True once the idle timer (not the caller) aborted the request. */
  readonly timedOut: boolean;
  touch(): void;
  dispose(): void;
}

/** Starts the watchdog for one attempt; the idle timer runs from now, before any response arrives. */
export function startRequestWatchdog(
  callerSignal: AbortSignal | undefined,
  idleTimeoutMs: number,
): RequestWatchdog {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error(`no data for ${idleTimeoutMs} ms`));
    }, idleTimeoutMs);
  };
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    touch: () => {
      if (!controller.signal.aborted) arm();
    },
    dispose: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
