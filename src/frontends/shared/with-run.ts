import type { FrontEnd } from "../../runtime/front-end.js";
import type { RunContext } from "../../runtime/run-context.js";
import type { RunEvents } from "../../runtime/run-events.js";
import { asUsageError, type UsageError } from "../../runtime/setup/setup-errors.js";
import { type StartRunInput, startRun } from "../../runtime/start-run.js";
import type { CliOptions } from "./cli-options.js";
import { runOptionsOf } from "./run-options-of.js";

/** What a long-lived front-end starts its run with: the command line, the process, its events and its asker. */
export interface RunStart {
  options: CliOptions;
  io: StartRunInput["io"];
  events: RunEvents;
  frontEnd: FrontEnd;
}

/**
 * Starts a run from the command line's options, gives it to `body` and closes it once `body` is
 * done, however it ends. A usage error in setup (no run was started) goes to `setupFailed`, whose
 * exit status is returned; any other failure is thrown.
 */
export async function withRun(
  start: RunStart,
  setupFailed: (usage: UsageError) => Promise<number> | number,
  body: (run: RunContext) => Promise<number>,
): Promise<number> {
  let run: RunContext;
  try {
    run = await startRun({
      options: runOptionsOf(start.options),
      io: start.io,
      events: start.events,
      frontEnd: start.frontEnd,
    });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    return await setupFailed(usage);
  }
  try {
    return await body(run);
  } finally {
    await run.close();
  }
}
