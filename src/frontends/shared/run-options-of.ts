import type { RunOptions } from "../../runtime/run-context.js";
import type { CliOptions } from "./cli-options.js";

/** What a run is started with, from the command line (`-r` alone is resolved to a path before). */
export function runOptionsOf(options: CliOptions): RunOptions {
  return {
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.session === undefined ? {} : { session: options.session }),
    ...(typeof options.resume === "string" ? { resume: options.resume } : {}),
    ...(options.fork === undefined ? {} : { fork: options.fork }),
    continue: options.continue,
    allowTools: options.allowTools,
    ...(options.plan === true ? { plan: true } : {}),
    yes: options.yes,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    allowUnsandboxed: options.allowUnsandboxed === true,
    ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
  };
}
