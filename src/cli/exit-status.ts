/** Exit statuses, as documented in `panto --help` (DESIGN "CLI contract"). */
export const EXIT_OK = 0;
/** A model, provider or runtime failure, an overflow that survived its one retry included. */
export const EXIT_FAILURE = 1;
/** A usage or configuration error: bad flags, bad config, unknown provider, missing key, locked session. */
export const EXIT_USAGE = 2;
/** A print or JSON run stopped by --max-turns while the model still wanted to go on. */
export const EXIT_MAX_TURNS = 3;
/** Interrupted (SIGINT / Ctrl-C). */
export const EXIT_INTERRUPTED = 130;

/**
 * A mistake in how panto was invoked or configured, found before any model call. The message is
 * shown as is and the exit status is 2.
 */
export class UsageError extends Error {
  /** Short machine-readable kind for `--json` error events, e.g. "usage", "config", "session". */
  readonly kind: string;

  constructor(message: string, kind = "usage", options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UsageError";
    this.kind = kind;
  }
}
