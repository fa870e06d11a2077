import { optional } from "../../core/index.js";
import { visible } from "../../runtime/format-text.js";
import type { RunContext } from "../../runtime/run-context.js";
import { readRunUsage } from "../../runtime/run-usage.js";
import type { CliOptions } from "../shared/cli-options.js";
import { forkJson, rewindJson } from "../shared/rewind-json.js";
import { type OnceIo, type OnceReporter, runOnce } from "../shared/run-once.js";
import { outcomeJsonEvents } from "./compaction-json-events.js";
import { type JsonEvent, jsonLine, toJsonEvent } from "./json-events.js";
import { usageJson } from "./usage-json.js";

export interface JsonIo extends OnceIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * `panto --json`: one JSON event per line on stdout and nothing else; always ends with `done`.
 * Warnings are also written to stderr so a human watching the terminal sees them.
 */
export function runJson(options: CliOptions, io: JsonIo): Promise<number> {
  return runOnce(options, io, jsonReporter(io));
}

/**
 * What JSON mode reports of a run: every event as its `--json` line on `io.stdout` (warnings and
 * notices on stderr too), and `done` with the session's usage at the end. The stream-json
 * front-end reuses it for every turn of its long-lived session.
 */
export function jsonReporter(io: Pick<JsonIo, "stdout" | "stderr">): OnceReporter {
  return jsonEventReporter((event) => io.stdout.write(jsonLine(event)), io.stderr);
}

/**
 * JSON mode's reporter over any sink: each event as the object its `--json` line holds, handed to
 * `emit`; warnings and notices also written to `stderr` when given. The program API's sessions
 * use it with a sink of their own.
 */
export function jsonEventReporter(
  emit: (event: JsonEvent) => void,
  stderr: NodeJS.WritableStream | undefined,
): OnceReporter {
  let current: RunContext | undefined;
  return {
    started: (run) => {
      current = run;
      emit({
        type: "session_started",
        session_id: run.session.header.id,
        session_path: run.session.path,
        model: run.agent.model,
        resumed: run.resumed,
        cwd: run.cwd,
        mode: run.approvals.mode,
        sandbox: {
          mode: run.sandbox.mode,
          network: run.sandbox.network,
          writable_roots: run.sandbox.writableRoots,
        },
      });
      if (run.fork !== undefined) emit(forkJson(run.fork));
    },
    outcome: (outcome) => {
      const pins = () => current?.session.pins().map((pin) => pin.text) ?? [];
      for (const event of outcomeJsonEvents(outcome, pins)) emit(event);
      if (outcome.type === "rewound") emit(rewindJson(outcome.prepared, outcome.report));
      if (outcome.type === "forked") emit(forkJson(outcome.fork));
    },
    event: (event) => {
      const json = toJsonEvent(event);
      if (json !== undefined) emit(json);
      if (event.type === "warning" || event.type === "run-warning")
        stderr?.write(`panto: warning: ${visible(event.message)}\n`);
      if (event.type === "run-notice") stderr?.write(`panto: ${visible(event.message)}\n`);
    },
    output: () => {},
    failure: (error) => emit({ type: "error", ...error }),
    done: async (exitCode, text) => {
      const usage = current === undefined ? undefined : usageJson(await readRunUsage(current));
      emit({ type: "done", exit_code: exitCode, ...optional("text", text), ...optional("usage", usage) });
    },
  };
}
