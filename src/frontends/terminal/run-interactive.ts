import { preparedCompactionText } from "../../runtime/context-warnings.js";
import type { FrontEnd } from "../../runtime/front-end.js";
import { RunEvents } from "../../runtime/run-events.js";
import type { CliIo } from "../shared/cli-io.js";
import type { CliOptions } from "../shared/cli-options.js";
import { EXIT_USAGE } from "../shared/exit-status.js";
import { colourEnabled, createStyle } from "../shared/style.js";
import { withRun } from "../shared/with-run.js";
import { Repl } from "./interactive-repl.js";
import { resumeHint } from "./resume-hint.js";
import { markdownFor } from "./toolkit/markdown-stream.js";
import { TerminalRenderer } from "./toolkit/terminal-renderer.js";

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
  const frontEnd: FrontEnd = {
    askApproval: (call, tool, request, origin) => repl.askApproval(call, tool, request, origin),
    editText: (text) => repl.editText(text),
    reviewDraft: (draft) => repl.reviewDraft(draft),
    ...(io.stdin.isTTY === true
      ? { chooseRewind: (path: string, home: string) => repl.chooseRewind(path, home) }
      : {}),
  };
  return await withRun(
    { options, io, events, frontEnd },
    (usage) => {
      io.stderr.write(`panto: ${usage.message}\n`);
      return EXIT_USAGE;
    },
    async (run) => {
      const code = await repl.start(run, options.prompt);
      const hint = resumeHint(run.session);
      if (hint !== undefined) for (const line of hint.split("\n")) renderer.line(style.dim(line));
      return code;
    },
  );
}
