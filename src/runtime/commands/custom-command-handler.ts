import { optional } from "../../core/index.js";
import { expandCommandBody } from "../../custom-commands/expand-command-body.js";
import type { CustomCommand } from "../../custom-commands/index.js";
import { failed, usageError } from "../command-outcome.js";
import { attachFiles } from "../input/attach-files.js";
import type { CommandHandler, RunContext, RuntimeCommand } from "../run-context.js";

/** How each source is shown after a command's description in `/help`. */
const SOURCE_LABEL: Record<CustomCommand["source"], string> = {
  project: "project",
  claude: "project, .claude",
  user: "user",
};

/** A custom command as a run's registry holds it: its listing, and a handler that sends its prompt. */
export function customRuntimeCommand(command: CustomCommand): RuntimeCommand {
  return {
    name: command.name,
    aliases: [],
    args: command.argumentHint,
    summary: `${command.description} (${SOURCE_LABEL[command.source]})`,
    execute: customCommandHandler(command),
  };
}

/**
 * `/name args`: fills in the command's template (`$ARGUMENTS`, `$1`..`$9`), attaches the files it
 * names with `@path` (relative to the working directory, as typed at the prompt), and sends it to
 * the model as the user's prompt: with the command's `model` for this prompt only, and its
 * `allowed-tools` running without a question. A missing attachment or a bad model sends nothing.
 */
export function customCommandHandler(command: CustomCommand): CommandHandler {
  return async (run, args, signal) => {
    const attached = await attachFiles(expandCommandBody(command.body, args), run.cwd);
    if (!attached.ok) return usageError(`/${command.name} (${command.path}): ${attached.error}`);
    const previous = run.agent.model;
    const switched = command.model !== undefined && command.model !== previous;
    if (switched) {
      const problem = switchModel(run, command.model as string);
      if (problem !== undefined)
        return usageError(`/${command.name}: ${command.path}: "model": ${problem}`, "config");
    }
    try {
      const send = () =>
        run.agent.prompt(attached.text, {
          ...optional("signal", signal),
          ...optional("maxRequests", run.maxTurns),
        });
      const result = await run.approvals.allowDuring(command.allowedTools ?? [], send);
      if (!result.ok) {
        const status = result.error.code === "aborted" ? "interrupted" : "failure";
        return failed(status, result.error.code, `/${command.name}: ${result.error.message}`);
      }
      if (result.stopped === "max-requests") {
        const requests = run.maxTurns === 1 ? "1 model request" : `${run.maxTurns} model requests`;
        return failed(
          "max-turns",
          "max_turns",
          `/${command.name}: stopped after ${requests} (--max-turns ${run.maxTurns}); the model had not finished`,
        );
      }
      return { type: "prompt-answered", command: command.name, files: attached.files, text: result.text };
    } finally {
      // The session's model stays what it was: a resume must not pick up the command's.
      if (switched) {
        run.agent.setModel(previous);
        await run.agent.recordModel();
      }
    }
  };
}

function switchModel(run: RunContext, model: string): string | undefined {
  try {
    run.agent.setModel(model);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
