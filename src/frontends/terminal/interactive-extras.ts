import { describeSandbox, plural } from "../../runtime/format-text.js";
import type { RunContext } from "../../runtime/run-context.js";
import { describeFork } from "../../runtime/setup/fork-run-session.js";
import { todoCountText } from "../../runtime/todo-text.js";
import { todosInForce } from "../../todos/index.js";
import type { Style } from "../shared/style.js";
import { type RecapLine, resumeRecap } from "./resume-recap.js";

/** Where the interactive session writes a line. */
export interface LineWriter {
  line(text: string): void;
}

/** The line shown after Ctrl-C cancelled a prompt: whether its text and the partial answer were kept. */
export function interruptNotice(result: { keptInterrupted?: boolean }): string {
  if (result.keptInterrupted === true)
    return "cancelled: your prompt and the answer so far stay in the context, marked interrupted";
  return "cancelled before any answer: the prompt is kept in the session file but left out of the context";
}

/**
 * The interactive session's opening lines: version, model, the session's id (what `panto -r`
 * takes) and file and what it holds, notices, keys; a resumed session then shows its latest turns
 * and, when one is in force, its task list's count (the status line shows it from then on).
 */
export function printBanner(run: RunContext, version: string, out: LineWriter, style: Style): void {
  const context = run.agent.effectiveContext();
  const state = run.resumed
    ? `resumed: ${context.compaction === undefined ? "" : "a compaction block + "}${plural(context.messages.length, "message")} in context`
    : "new: the file is written with the first message";
  const write = (text: string): void => out.line(text);
  write(`${style.bold(`panto ${version}`)} · model ${style.cyan(run.agent.model)}`);
  write(style.dim(`session ${run.session.header.id} (${state})`));
  write(style.dim(`file ${run.session.path}`));
  const sandbox = `sandbox ${describeSandbox(run.sandbox)}`;
  write(run.sandbox.mode === "full" ? style.yellow(sandbox) : style.dim(sandbox));
  if (run.fork !== undefined) write(style.dim(describeFork(run.fork)));
  if (run.approvals.mode === "plan")
    write(
      style.yellow(
        "plan mode on (--plan): read and search only, write and edit refused (/plan off or Shift+Tab leaves it)",
      ),
    );
  for (const notice of run.notices) write(style.yellow(notice));
  if (run.resumed) for (const line of resumeRecap(context)) write(recapText(line, style));
  const tasks = todoCountText(todosInForce(run.session));
  if (tasks !== "") write(style.dim(`${tasks} in the task list in force (/todo shows it)`));
  write(
    style.dim("/help for commands · \\ at the end of a line continues it · Ctrl-C cancels · Ctrl-D exits"),
  );
}

function recapText(line: RecapLine, style: Style): string {
  switch (line.kind) {
    case "user":
      return `${style.bold(">")} ${line.text}`;
    case "answer":
      return style.dim(`  ${line.text}`);
    case "collapsed":
      return style.dim(line.text);
  }
}
