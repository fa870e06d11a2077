import { prefetchContextWindow } from "../../runtime/context-usage.js";
import type { RunContext } from "../../runtime/run-context.js";
import { todoCountText } from "../../runtime/todo-text.js";
import type { TurnResult } from "../../runtime/turn-result.js";
import { todosInForce } from "../../todos/index.js";
import type { Style } from "../shared/style.js";
import { contextStatusLine } from "./context-status-line.js";
import { interruptNotice } from "./interactive-extras.js";
import type { TerminalRenderer } from "./toolkit/terminal-renderer.js";

/**
 * Runs one submitted line of the interactive session through `run.submit` (`!COMMAND`, a slash
 * command, or a prompt to the model) and shows how it ended, which it returns (a command outcome
 * "exit": the user asked to leave). What happened meanwhile the renderer showed from the run's events.
 */
export async function executeLine(
  run: RunContext,
  text: string,
  signal: AbortSignal,
  renderer: TerminalRenderer,
  style: Style,
): Promise<TurnResult> {
  // The status line after an answer shows the window: ask the server for it while the model answers.
  const stop = run.events.subscribe((event) => {
    if (event.type === "prompt-sent") prefetchContextWindow(run);
  });
  let result: TurnResult;
  try {
    result = await run.submit(text, { signal });
  } finally {
    stop();
    // A /clear, /rewind, /uncompact or handoff changes the list without a todo call.
    renderer.tasks(todoCountText(todosInForce(run.session)));
  }
  await showResult(run, result, renderer, style);
  return result;
}

async function showResult(
  run: RunContext,
  result: TurnResult,
  renderer: TerminalRenderer,
  style: Style,
): Promise<void> {
  switch (result.type) {
    case "command":
      renderer.commandOutcome(result.outcome);
      return;
    case "shell":
      renderer.line(style.dim(`$ ${result.command}`));
      renderer.line(result.isError ? style.red(result.output) : result.output);
      renderer.line(style.dim("(the command and its output are now in the conversation)"));
      return;
    case "refused":
      renderer.line(style.red(result.message));
      return;
    case "answered":
      renderer.reset();
      if (result.maxTurnsReached === true)
        renderer.line(style.yellow(`stopped after --max-turns ${run.maxTurns}; the model had not finished`));
      renderer.line(await contextStatusLine(run, style, run.agent.learnedWindow()?.contextWindow));
      return;
    case "prompt-failed": {
      renderer.reset();
      const cancelled = result.code === "aborted";
      renderer.line(
        cancelled
          ? style.yellow(interruptNotice(result))
          : style.red(`error (${result.code}): ${result.message}`),
      );
      if (result.hint !== undefined && !cancelled) renderer.line(style.dim(result.hint));
      return;
    }
  }
}
