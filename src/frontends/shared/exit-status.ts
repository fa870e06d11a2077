import type { FailureStatus } from "../../runtime/command-outcome.js";

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
/** The terminal hung up (SIGHUP): 128 + 1, as a shell reports a process ended by it. */
export const EXIT_HANGUP = 129;

/** The exit status of a command that failed this way (or 0 when it did not fail). */
export function exitStatusOf(failure: { status: FailureStatus } | undefined): number {
  if (failure === undefined) return EXIT_OK;
  switch (failure.status) {
    case "usage":
      return EXIT_USAGE;
    case "failure":
      return EXIT_FAILURE;
    case "max-turns":
      return EXIT_MAX_TURNS;
    case "interrupted":
      return EXIT_INTERRUPTED;
  }
}
