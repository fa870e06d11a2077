import type { AgentEvent } from "../../agent/index.js";
import { checkpointWarning } from "../../checkpoints/describe-rewind.js";
import { backgroundTaskLine } from "../../runtime/background-task-text.js";
import { contextWarningText } from "../../runtime/context-warnings.js";
import {
  formatClearingLine,
  formatCompactionLine,
  formatToolCall,
  formatToolResult,
  toolDeniedText,
  visible,
} from "../../runtime/format-text.js";
import { describeFork } from "../../runtime/setup/fork-run-session.js";
import { taskEventLine } from "../../runtime/task-text.js";
import { todoHeadline } from "../../runtime/todo-text.js";
import type { CliOptions } from "../shared/cli-options.js";
import { type OnceIo, type OnceReporter, runOnce } from "../shared/run-once.js";
import { colourEnabled, createStyle } from "../shared/style.js";

export interface PrintIo extends OnceIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

/**
 * `panto -p`: only the final assistant text (or a slash command's report) goes to stdout, with a
 * trailing newline; progress, compaction notices, warnings and errors go to stderr, one line each.
 */
export function runPrint(options: CliOptions, io: PrintIo): Promise<number> {
  const style = createStyle(colourEnabled(io.stderr, io.env));
  // Warnings and errors carry text from hooks, servers and files: escape it before styling it.
  const note = (text: string, paint: (text: string) => string = (plain) => plain): void => {
    io.stderr.write(`${style.dim("panto:")} ${paint(visible(text))}\n`);
  };
  const reporter: OnceReporter = {
    started: (run) => {
      if (run.fork !== undefined) note(describeFork(run.fork));
    },
    event: (event) => {
      switch (event.type) {
        case "run-warning":
          return note(`warning: ${event.message}`, style.yellow);
        case "run-notice":
          return note(event.message, style.dim);
        case "tool-denied":
          return note(toolDeniedText(event), style.yellow);
        case "context-warning":
          return note(`warning: ${contextWarningText(event)}`, style.yellow);
        case "prompt-sent":
          return;
        case "handoff":
          // With --yes nobody reviewed the draft: print it before the new session's answer, so
          // what the new session was told is on record where the user reads (a draft not started
          // is printed by its outcome instead).
          if (event.session === undefined) return;
          io.stdout.write(`${event.draft}\n\n`);
          return note(
            `handoff: started session ${event.session.id.slice(0, 8)} (${event.session.path}); sending the draft as its first prompt`,
          );
        case "todo-updated":
          return note(todoHeadline(event.items, event.completed, event.total));
        case "mode-changed":
          // Plain ids, as --help and the JSON event name them (the terminal's sentence is not loaded here).
          return note(`mode: ${event.mode} (was ${event.previous})`);
        case "background-task-started":
        case "background-task-exited":
          return note(backgroundTaskLine(event));
        case "task-started":
        case "task-event":
        case "task-finished": {
          const line = taskEventLine(event, printLine);
          if (line !== undefined) note(line);
          return;
        }
        default: {
          const line = printLine(event);
          if (line !== undefined) note(line);
        }
      }
    },
    output: (text) => {
      io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    },
    failure: (error) => {
      note(`error (${error.code}): ${error.message}`, style.red);
      if (error.hint !== undefined) note(error.hint);
    },
    done: () => {},
  };
  return runOnce(options, io, reporter);
}

/** The stderr line for an agent event in print mode, if it deserves one. */
export function printLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case "tool-call":
      return `tool ${formatToolCall(event.call)}`;
    case "tool-result":
      return event.result.isError
        ? `tool ${event.result.toolName}: ${formatToolResult(event.result)}`
        : undefined;
    case "retry-wait":
      return `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`;
    case "compaction":
      if (event.record.trigger === "cold-cache")
        return `prompt cache expired: ${formatCompactionLine(event.record, event.tokensBefore, event.tokensAfter)}, before the whole prompt is cached again`;
      return event.record.trigger === "overflow"
        ? `context overflow: ${formatCompactionLine(event.record, event.tokensBefore, event.tokensAfter)}; retrying once`
        : undefined;
    case "compaction-failed":
      return `${event.trigger === "overflow" ? "context overflow: " : ""}compaction failed (${event.code}): ${event.message}`;
    case "compaction-skipped":
      return event.trigger === "overflow"
        ? `context overflow: compaction cannot help: ${event.reason}`
        : undefined;
    case "context-cleared":
      return formatClearingLine(event);
    case "warning":
      return `warning: ${event.message}`;
    case "checkpoint": {
      const warning = checkpointWarning(event.entry);
      return warning === undefined ? undefined : `warning: ${warning}`;
    }
    default:
      return undefined;
  }
}
