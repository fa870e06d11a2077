import { preparedCompactionText } from "../../runtime/context-warnings.js";
import type { RunContext } from "../../runtime/run-context.js";
import { RunEvents } from "../../runtime/run-events.js";
import { asUsageError } from "../../runtime/setup/setup-errors.js";
import { startRun } from "../../runtime/start-run.js";
import type { CliIo } from "../cli-io.js";
import type { CliOptions } from "../cli-options.js";
import { EXIT_USAGE } from "../exit-status.js";
import { runOptionsOf } from "../run-options-of.js";
import { resumeHint } from "../sessions/resume-hint.js";
import { markdownFor } from "../terminal/markdown-stream.js";
import { colourEnabled, createStyle } from "../terminal/style.js";
import { TerminalRenderer } from "../terminal/terminal-renderer.js";
import { Repl } from "./interactive-repl.js";

/** The interactive session: a readline prompt over the agent. Resolves with the exit status. */
export async function runInteractive(options: CliOptions, io: CliIo): Promise<number> {
  const colour = colourEnabled(io.stdout, io.env);
  const style = createStyle(colour);
  const renderer = new TerminalRenderer(io.stdout, io.stderr, style, markdownFor(io.stdout, colour));
  const repl = new Repl(io, style, renderer);
  const events = new RunEvents();
  events.subscribe((event) => {
    // Ready in the background, most often while the user types: said above the prompt.
    if (event.type === "compaction-prepared") repl.notice(style.dim(preparedCompactionText(event)));
    else renderer.render(event);
  });
  let run: RunContext;
  try {
    run = await startRun({
      options: runOptionsOf(options),
      io,
      events,
      frontEnd: {
        askApproval: (call, tool, request, origin) => repl.askApproval(call, tool, request, origin),
        editText: (text) => repl.editText(text),
        reviewDraft: (draft) => repl.reviewDraft(draft),
        ...(io.stdin.isTTY === true
          ? { chooseRewind: (path: string, home: string) => repl.chooseRewind(path, home) }
          : {}),
      },
    });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    io.stderr.write(`panto: ${usage.message}\n`);
    return EXIT_USAGE;
  }
  try {
    const code = await repl.start(run, options.prompt);
    const hint = resumeHint(run.session);
    if (hint !== undefined) for (const line of hint.split("\n")) renderer.line(style.dim(line));
    return code;
  } finally {
    await run.close();
  }
}
