import type { RequestSize } from "../../agent/index.js";
import { contextUsage, type ShownWindow, windowSourceText } from "../../runtime/context-usage.js";
import { formatTokens } from "../../runtime/format-text.js";
import type { RunContext } from "../../runtime/run-context.js";
import { todoCountText } from "../../runtime/todo-text.js";
import { todosInForce } from "../../todos/index.js";
import type { Style } from "../shared/style.js";

/**
 * The dim line shown after each answer: "context 12.3k tokens · 9% of 131k (reported by the
 * server)", the size being the next request's, system prompt and tool definitions included; then,
 * while a task list is in force, its count (`tasks`: "tasks 3/7").
 */
export function formatContextStatus(
  size: RequestSize,
  window: ShownWindow | undefined,
  style: Style,
  tasks = "",
): string {
  const tokens = `${size.source === "estimate" ? "~" : ""}${formatTokens(size.tokens)} tokens`;
  const share =
    window === undefined
      ? ""
      : ` · ${Math.round((size.tokens / window.tokens) * 100)}% of ${formatTokens(window.tokens)} (${windowSourceText(window.source)})`;
  const note = size.source === "estimate" ? " (estimated: no usage reported)" : "";
  return style.dim(`context ${tokens}${note}${share}${tasks === "" ? "" : ` · ${tasks}`}`);
}

/**
 * The status line for the interactive session after an answer, with how many background tasks
 * run (when any do). `learnedWindow`: the window the
 * session learned from an overflow for the active model, when it knows one.
 */
export async function contextStatusLine(
  run: RunContext,
  style: Style,
  learnedWindow?: number,
): Promise<string> {
  const { size, window } = await contextUsage(run, learnedWindow);
  return (
    formatContextStatus(size, window, style, todoCountText(todosInForce(run.session))) +
    backgroundCount(run.tasks.runningCount(), style)
  );
}

/** " · 2 background tasks running (/tasks)" while any runs, else nothing. */
export function backgroundCount(running: number, style: Style): string {
  if (running === 0) return "";
  return style.dim(` · ${running} background task${running === 1 ? "" : "s"} running (/tasks)`);
}
