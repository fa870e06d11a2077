import type { RunContext } from "../../runtime/run-context.js";
import { RunEvents } from "../../runtime/run-events.js";
import { asUsageError } from "../../runtime/setup/setup-errors.js";
import { startRun } from "../../runtime/start-run.js";
import type { CliOptions } from "../shared/cli-options.js";
import { EXIT_USAGE } from "../shared/exit-status.js";
import type { OnceReporter } from "../shared/run-once.js";
import { runOptionsOf } from "../shared/run-options-of.js";
import { type JsonEvent, jsonLine } from "./json-events.js";
import { PermissionQuestions } from "./permission-questions.js";
import { type JsonIo, jsonReporter } from "./run-json.js";
import { StreamJsonSession } from "./stream-json-session.js";

/**
 * `panto -p --input-format stream-json --json`: one long-lived session fed one JSON message per
 * stdin line (Claude Code's user messages and interrupt; panto's permission answers), its events
 * the `--json` ones, a `result` after each input and `done` once stdin has ended and every input
 * has run. Unlike one-shot JSON mode the run is long-lived: context warnings and the compaction
 * prepared ahead (config `prepare_compaction_at`) work as in the terminal, and `/clear` starts a
 * new session file.
 */
export async function runStreamJson(options: CliOptions, io: JsonIo): Promise<number> {
  const reporter = jsonReporter(io);
  const emit = (event: JsonEvent): void => {
    io.stdout.write(jsonLine(event));
  };
  const questions = new PermissionQuestions(emit);
  const session = new StreamJsonSession({ reporter, emit, questions });
  const events = new RunEvents();
  // A command's outcome is reported from submit's result; its `command` notification is not shown.
  events.subscribe((event) => {
    if (event.type !== "command") reporter.event(event);
  });
  let run: RunContext;
  try {
    run = await startRun({
      options: runOptionsOf(options),
      io,
      events,
      frontEnd: {
        askApproval: (call, _tool, request, origin) =>
          questions.ask(call, request, origin, session.turnSignal),
      },
    });
  } catch (error) {
    return await setupFailed(reporter, error);
  }
  try {
    reporter.started(run);
    for (const notice of run.notices) reporter.event({ type: "run-notice", message: notice });
    await run.sessionStart();
    const exitCode = await session.serve(run, io.stdin);
    // The session ends here: its background commands stop now, so their ends come before `done`.
    await run.tasks.close();
    await reporter.done(exitCode);
    return exitCode;
  } catch (error) {
    return await setupFailed(reporter, error);
  } finally {
    await run.close();
  }
}

/** A usage error (setup, or a session that fails at its first write) ends the run: `error`, `done`, exit 2. */
async function setupFailed(reporter: OnceReporter, error: unknown): Promise<number> {
  const usage = asUsageError(error);
  if (usage === undefined) throw error;
  reporter.failure({ code: usage.kind, message: usage.message });
  await reporter.done(EXIT_USAGE);
  return EXIT_USAGE;
}
