/** Default wait for the response headers: a server that accepts and says nothing is given up soon. */
export const DEFAULT_FIRST_BYTE_TIMEOUT_MS = 30_000;
/** Default wait for content progress once the response has started; keepalives do not count. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;
/** Default deadline for a whole request however it progresses: long enough for slow thinking models. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** The three deadlines of one request attempt, in milliseconds. */
export interface RequestTimeouts {
  firstByteMs: number;
  idleMs: number;
  requestMs: number;
}

/** Which deadline fired, and the config key that sets it (for messages). */
export type TimeoutKind = "first-byte" | "idle" | "request";
export const TIMEOUT_CONFIG_KEYS: Readonly<Record<TimeoutKind, string>> = {
  "first-byte": "timeouts.first_byte_ms",
  idle: "timeouts.idle_ms",
  request: "timeouts.request_ms",
};

/**
 * The deadlines: each adapter option when set, else (idle only) PANTO_STREAM_IDLE_TIMEOUT_MS, else
 * the default.
 */
export function resolveTimeouts(
  options: { firstByteTimeoutMs?: number; idleTimeoutMs?: number; requestTimeoutMs?: number },
  env: NodeJS.ProcessEnv = process.env,
): RequestTimeouts {
  return {
    firstByteMs: positive(options.firstByteTimeoutMs) ?? DEFAULT_FIRST_BYTE_TIMEOUT_MS,
    idleMs:
      positive(options.idleTimeoutMs) ??
      positive(Number(env.PANTO_STREAM_IDLE_TIMEOUT_MS)) ??
      DEFAULT_IDLE_TIMEOUT_MS,
    requestMs: positive(options.requestTimeoutMs) ?? DEFAULT_REQUEST_TIMEOUT_MS,
  };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * One request attempt's abort signal. It fires when the caller aborts (at once), when the response
 * headers have not arrived within `firstByteMs`, when no content has arrived for `idleMs` after
 * them, or when the whole attempt has taken `requestMs`. Adapters call `responded` when the
 * headers arrive and `progress` on every event that carries content (text, thinking, tool calls,
 * usage, message events), never on keepalives; `dispose` when done.
 */
export interface RequestWatchdog {
  readonly signal: AbortSignal;
  /** True once a deadline (not the caller) aborted the request. */
  readonly timedOut: boolean;
  /** Which deadline fired, if one did. */
  readonly timeout: TimeoutKind | undefined;
  readonly timeouts: RequestTimeouts;
  responded(): void;
  progress(): void;
  dispose(): void;
}

/** Starts the watchdog for one attempt: the first-byte and request deadlines run from now. */
export function startRequestWatchdog(
  callerSignal: AbortSignal | undefined,
  timeouts: RequestTimeouts,
): RequestWatchdog {
  const controller = new AbortController();
  let timeout: TimeoutKind | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let firstByteTimer: NodeJS.Timeout | undefined;
  const fire = (kind: TimeoutKind, ms: number) => (): void => {
    if (controller.signal.aborted) return;
    timeout = kind;
    controller.abort(new Error(`${kind} timeout after ${ms} ms`));
  };
  const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onCallerAbort();
  else callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const requestTimer = setTimeout(fire("request", timeouts.requestMs), timeouts.requestMs);
  firstByteTimer = setTimeout(fire("first-byte", timeouts.firstByteMs), timeouts.firstByteMs);
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(fire("idle", timeouts.idleMs), timeouts.idleMs);
  };
  return {
    signal: controller.signal,
    get timedOut() {
      return timeout !== undefined;
    },
    get timeout() {
      return timeout;
    },
    timeouts,
    responded: () => {
      if (controller.signal.aborted || firstByteTimer === undefined) return;
      clearTimeout(firstByteTimer);
      firstByteTimer = undefined;
      armIdle();
    },
    progress: () => {
      if (controller.signal.aborted) return;
      clearTimeout(firstByteTimer);
      firstByteTimer = undefined;
      armIdle();
    },
    dispose: () => {
      clearTimeout(requestTimer);
      clearTimeout(firstByteTimer);
      clearTimeout(idleTimer);
      callerSignal?.removeEventListener("abort", onCallerAbort);
    },
  };
}
