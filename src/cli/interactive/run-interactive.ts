import { colourEnabled, createStyle } from "../../runtime/format-text.js";
import { asUsageError } from "../../runtime/setup/setup-errors.js";
import { type RunContext, startRun } from "../../runtime/start-run.js";
import type { CliIo } from "../cli-io.js";
import type { CliOptions } from "../cli-options.js";
import { EXIT_USAGE } from "../exit-status.js";
import { resumeHint } from "../sessions/resume-hint.js";
import { markdownFor } from "../terminal/markdown-stream.js";
import { TerminalRenderer } from "../terminal/terminal-renderer.js";
import { Repl } from "./interactive-repl.js";

/** The interactive session: a readline prompt over the agent. Resolves with the exit status. */
export async function runInteractive(options: CliOptions, io: CliIo): Promise<number> {
  const colour = colourEnabled(io.stdout, io.env);
  const style = createStyle(colour);
  const renderer = new TerminalRenderer(io.stdout, io.stderr, style, markdownFor(io.stdout, colour));
  const repl = new Repl(io, style, renderer, options.allowTools);
  let run: RunContext;
  try {
    run = await startRun({
      options,
      io,
      hooks: {
        onEvent: (event) => renderer.render(event),
        onWarning: (message) => renderer.warning(message),
        approve: (call, tool) => repl.approve(call, tool),
      },
    });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    io.stderr.write(`panto: ${usage.message}\n`);
    return EXIT_USAGE;
  }
  try {
    const code = await repl.start(run);
    const hint = resumeHint(run.session);
    if (hint !== undefined) for (const line of hint.split("\n")) renderer.line(style.dim(line));
    return code;
  } finally {
    await run.close();
  }
}
