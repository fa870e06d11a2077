import { parseSlashCommand } from "../../runtime/command-registry.js";
import { prefetchContextWindow } from "../../runtime/context-usage.js";
import type { RunContext } from "../../runtime/run-context.js";
import type { Style } from "../terminal/style.js";
import type { TerminalRenderer } from "../terminal/terminal-renderer.js";
import { contextStatusLine } from "./context-status-line.js";
import { interruptNotice, isShellEscape, promptWithAttachments, runShellLine } from "./interactive-extras.js";

/**
 * Runs one submitted line of the interactive session (`!COMMAND`, a slash command, or a prompt to
 * the model) and shows how it went; returns true when the user asked to leave. A command's report
 * is shown by the renderer, from the run's events.
 */
export async function executeLine(
  run: RunContext,
  text: string,
  signal: AbortSignal,
  renderer: TerminalRenderer,
  style: Style,
): Promise<boolean> {
  if (isShellEscape(text)) {
    await runShellLine(run, text, signal, renderer, style);
    return false;
  }
  const command = parseSlashCommand(text);
  if (command !== undefined) {
    const outcome = await run.runCommand(command, signal);
    return outcome.type === "exit";
  }
  const prompt = await promptWithAttachments(run, text, renderer, style);
  if (prompt === undefined) return false;
  prefetchContextWindow(run);
  const result = await run.agent.prompt(prompt, { signal });
  // The turn's last context warning comes before the status line it qualifies.
  await run.contextWatch.settled();
  renderer.reset();
  if (result.ok) renderer.line(await contextStatusLine(run, style, run.agent.learnedWindow()?.contextWindow));
  if (!result.ok) {
    const cancelled = result.error.code === "aborted";
    renderer.line(
      cancelled
        ? style.yellow(interruptNotice(result))
        : style.red(`error (${result.error.code}): ${result.error.message}`),
    );
    if (result.hint !== undefined && !cancelled) renderer.line(style.dim(result.hint));
  }
  return false;
}
