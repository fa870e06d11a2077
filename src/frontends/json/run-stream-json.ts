import type { FrontEnd } from "../../runtime/front-end.js";
import { RunEvents } from "../../runtime/run-events.js";
import { asUsageError, type UsageError } from "../../runtime/setup/setup-errors.js";
import type { CliOptions } from "../shared/cli-options.js";
import { EXIT_USAGE } from "../shared/exit-status.js";
import type { OnceReporter } from "../shared/run-once.js";
import { withRun } from "../shared/with-run.js";
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
  const frontEnd: FrontEnd = {
    askApproval: (call, _tool, request, origin) => questions.ask(call, request, origin, session.turnSignal),
  };
  return await withRun(
    { options, io, events, frontEnd },
    (usage) => usageFailed(reporter, usage),
    async (run) => {
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
        const usage = asUsageError(error);
        if (usage === undefined) throw error;
        return await usageFailed(reporter, usage);
      }
    },
  );
}

/** A usage error (setup, or a session that fails at its first write) ends the run: `error`, `done`, exit 2. */
async function usageFailed(reporter: OnceReporter, usage: UsageError): Promise<number> {
  reporter.failure({ code: usage.kind, message: usage.message });
  await reporter.done(EXIT_USAGE);
  return EXIT_USAGE;
}
