import { parseSlashCommand } from "../../runtime/commands/built-in-commands.js";
import { runSlashCommand, type SlashIo } from "../../runtime/commands/built-in-handlers.js";
import { contextStatusLine, prefetchContextWindow } from "../../runtime/context-usage.js";
import type { Style } from "../../runtime/format-text.js";
import type { RunContext } from "../../runtime/start-run.js";
import type { TerminalRenderer } from "../terminal/terminal-renderer.js";
import { interruptNotice, isShellEscape, promptWithAttachments, runShellLine } from "./interactive-extras.js";

/**
 * Runs one submitted line of the interactive session (`!COMMAND`, a slash command, or a prompt to
 * the model) and shows how it went; returns true when the user asked to leave.
 */
export async function executeLine(
  run: RunContext,
  text: string,
  signal: AbortSignal,
  renderer: TerminalRenderer,
  style: Style,
  slashIo: SlashIo,
): Promise<boolean> {
  if (isShellEscape(text)) {
    await runShellLine(run, text, signal, renderer, style);
    return false;
  }
  const command = parseSlashCommand(text);
  if (command !== undefined) {
    const result = await runSlashCommand(run, command, signal, slashIo);
    renderer.reset();
    if (result.output !== "") renderer.line(result.output);
    if (result.error !== undefined) renderer.line(style.red(result.error.message));
    return result.exit;
  }
  const prompt = await promptWithAttachments(run, text, renderer, style);
  if (prompt === undefined) return false;
  prefetchContextWindow(run);
  const result = await run.agent.prompt(prompt, { signal });
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
