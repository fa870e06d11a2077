import type { AgentEvent } from "../../../agent/index.js";
import { checkpointWarning } from "../../../checkpoints/index.js";
import type { CompactionTrigger } from "../../../core/index.js";
import { backgroundTaskLine } from "../../../runtime/background-task-text.js";
import type { CommandOutcome } from "../../../runtime/command-outcome.js";
import { contextWarningText, preparedCompactionText } from "../../../runtime/context-warnings.js";
import {
  formatClearingLine,
  formatCompactionLine,
  formatToolCall,
  formatToolResult,
  toolDeniedText,
  visible,
} from "../../../runtime/format-text.js";
import { modeChangedText } from "../../../runtime/mode-text.js";
import { describeOutcome, handedOffLine, type OutcomeReport } from "../../../runtime/outcome-text.js";
import type { RunEvent } from "../../../runtime/run-events.js";
import { taskEventLine } from "../../../runtime/task-text.js";
import { todoCountText, todoListText } from "../../../runtime/todo-text.js";
import type { Style } from "../../shared/style.js";
import type { MarkdownStream } from "./markdown-stream.js";
import { StatusLine } from "./status-line.js";
import { WordWrapper, wrapLines } from "./word-wrapper.js";

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * Renders a run's events in the interactive terminal: answers stream to stdout as they arrive, as
 * their plain text (left to the terminal to wrap, so code copies back as it was) or, given a
 * {@link MarkdownStream}, rendered block by block; thinking is dim and word-wrapped; tool calls,
 * notices and command reports get a line each. While panto waits (for the model's first token, a
 * retry, a tool, a compaction) a status line on stderr says so; it is erased before anything else
 * is written.
 */
export class TerminalRenderer {
  readonly #out: Output;
  readonly #style: Style;
  readonly #spinner: StatusLine;
  readonly #answer: WordWrapper;
  readonly #markdown: MarkdownStream | undefined;
  #thinking = false;
  /** Characters of the answer received so far, while Markdown blocks are still being completed. */
  #received = 0;
  /**
   * Warnings raised while a compaction runs (an attempt that failed), held until its outcome says
   * whether they matter: a fallback or a success shows them, a cancel or a manual /compact (which
   * prints its own account) drops them. Undefined when no compaction is running.
   */
  #held: string[] | undefined;
  /** Why checkpoints failed, each said once. */
  readonly #checkpointWarnings = new Set<string>();

  constructor(out: Output, err: Output, style: Style, markdown?: MarkdownStream) {
    this.#out = out;
    this.#style = style;
    this.#spinner = new StatusLine(err, style);
    // Only thinking is wrapped here: an answer may hold code, which must reach the terminal as it is.
    this.#answer = new WordWrapper(() => (this.#thinking ? this.columns : undefined));
    this.#markdown = markdown;
  }

  /** The terminal's width, or undefined when stdout is not a terminal (nothing is wrapped then). */
  get columns(): number | undefined {
    return this.#out.isTTY === true ? this.#out.columns : undefined;
  }

  render(event: RunEvent): void {
    switch (event.type) {
      case "run-warning":
        this.warning(event.message);
        return;
      case "run-notice":
        this.line(this.#style.dim(visible(event.message)));
        return;
      case "tool-denied":
        this.warning(toolDeniedText(event));
        return;
      case "command":
        // Shown from the result of `submit` (commandOutcome), not from this notification.
        return;
      case "prompt-sent":
        if (event.files.length > 0) this.line(this.#style.dim(`(attached ${event.files.join(", ")})`));
        return;
      case "handoff":
        if (event.session !== undefined)
          this.line(
            this.#style.dim(
              `Starting session ${event.session.id.slice(0, 8)} with the handoff as its first prompt…`,
            ),
          );
        return;
      case "text-delta":
      case "thinking-delta":
        this.#stream(event.text, event.type === "thinking-delta");
        return;
      case "assistant-message":
        this.#spinner.stop();
        this.#thinking = false;
        this.endLine();
        return;
      case "request-started":
        this.endLine();
        this.#spinner.start(`waiting for ${event.model}`);
        return;
      case "tool-started":
        this.endLine();
        this.#spinner.start(`running ${formatToolCall(event.call)}`);
        return;
      case "retry-wait":
        this.line(this.#noticeFor(event) ?? "");
        this.#spinner.relabel(retryLabel(event.attempt, event.delayMs, event.reason));
        return;
      case "compaction-started":
        this.#compactionStarted(event.trigger, event.model);
        return;
      case "compaction-progress":
        this.#spinner.progress(event.characters, "characters of summary");
        return;
      case "warning":
        this.#holdOrWarn(event.message);
        return;
      case "checkpoint": {
        // Said once per reason: every later call would fail the same way.
        const warning = checkpointWarning(event.entry);
        if (warning !== undefined && !this.#checkpointWarnings.has(event.entry.error ?? "")) {
          this.#checkpointWarnings.add(event.entry.error ?? "");
          this.warning(warning);
        }
        return;
      }
      case "compaction-attempt-failed":
        this.#holdOrWarn(`compaction with ${event.model} failed (${event.code}): ${event.message}`);
        return;
      case "compaction":
      case "compaction-failed":
      case "compaction-skipped":
        this.#compactionEnded(event);
        return;
      case "context-warning":
        this.warning(contextWarningText(event));
        return;
      case "todo-updated":
        this.line(this.#style.dim(todoListText(event.items, event.completed, event.total)));
        this.#spinner.tasks(todoCountText(event.items));
        return;
      case "mode-changed":
        this.line(this.#style.dim(modeChangedText(event.mode, event.previous)));
        return;
      case "background-task-started":
      case "background-task-exited":
        this.line(this.#style.dim(backgroundTaskLine(event)));
        return;
      case "compaction-prepared":
        // Without a prompt to keep (the interactive session says it above its prompt).
        this.line(this.#style.dim(preparedCompactionText(event)));
        return;
      case "task-started":
      case "task-event":
      case "task-finished": {
        const line = taskEventLine(event, (inner) => this.#noticeFor(inner));
        if (line !== undefined) this.line(this.#style.dim(line));
        return;
      }
      default: {
        const line = this.#noticeFor(event);
        if (line !== undefined) this.line(line);
      }
    }
  }

  /** A slash command's outcome, once it ended. */
  commandOutcome(outcome: CommandOutcome): void {
    // A handoff's first answer was streamed as it came: its report is where it went.
    // A custom command's answer was streamed as it came; only a failure is left to show.
    if (outcome.type === "prompt-answered") this.reset();
    else
      this.#outcome(
        outcome.type === "handed-off"
          ? { text: handedOffLine(outcome), exit: false }
          : describeOutcome(outcome),
      );
  }

  /** A command's report, after whatever it streamed; a failure in red. */
  #outcome(report: OutcomeReport): void {
    this.reset();
    if (report.text !== "") this.line(report.text);
    if (report.error !== undefined) this.line(this.#style.red(report.error.message));
  }

  #holdOrWarn(message: string): void {
    if (this.#held === undefined) this.warning(message);
    else this.#held.push(message);
  }

  #compactionStarted(trigger: CompactionTrigger, model: string): void {
    if (this.#held !== undefined) this.#showHeld();
    else if (trigger === "overflow")
      this.line(
        this.#style.yellow(
          "context overflow: the request is too large for the model; compacting older turns, then retrying once",
        ),
      );
    this.#held = [];
    this.endLine();
    this.#spinner.announce(`compacting with ${model}`);
  }

  #compactionEnded(event: Extract<AgentEvent, { type: `compaction${string}` }>): void {
    this.#spinner.stop();
    const style = this.#style;
    switch (event.type) {
      case "compaction":
        this.#showHeld();
        // A manual /compact prints its own fuller report afterwards.
        if (event.record.trigger === "overflow")
          this.line(
            style.green(
              `✓ context overflow: ${formatCompactionLine(event.record, event.tokensBefore, event.tokensAfter)}${event.prepared === true ? " (the summary prepared ahead: no wait)" : ""}`,
            ),
          );
        else if (event.record.trigger === "cold-cache")
          this.line(
            style.green(
              `✓ prompt cache expired: ${formatCompactionLine(event.record, event.tokensBefore, event.tokensAfter)}, before the whole prompt is cached again${event.prepared === true ? " (the summary prepared ahead: no wait)" : ""}`,
            ),
          );
        break;
      case "compaction-failed":
        // A cancel is reported once by whoever was cancelled; /compact lists every attempt itself.
        if (event.code === "aborted" || event.trigger === "manual") this.#held = undefined;
        else {
          this.#showHeld();
          this.line(style.red(`✗ compaction failed (${event.code}): ${visible(event.message)}`));
        }
        break;
      case "compaction-skipped":
        if (event.trigger === "overflow")
          this.line(style.yellow(`context overflow: compaction cannot help: ${visible(event.reason)}`));
        break;
    }
    this.#held = undefined;
  }

  #showHeld(): void {
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const message of held) this.warning(message);
  }

  /** The one-line notice for an event that is not streamed text, if it deserves one. */
  #noticeFor(event: AgentEvent): string | undefined {
    const style = this.#style;
    switch (event.type) {
      case "tool-call":
        return style.cyan(`● ${formatToolCall(event.call)}`);
      case "tool-result": {
        const text = `  ⎿ ${formatToolResult(event.result)}`;
        return event.result.isError ? style.red(text) : style.dim(text);
      }
      case "retry-wait":
        return style.dim(
          `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${visible(event.reason)}`,
        );
      case "overflow-retry":
        return style.dim("↻ retrying the request once against the compacted context");
      case "context-cleared":
        return style.dim(`✂ ${formatClearingLine(event)}`);
      default:
        return undefined;
    }
  }

  /** A warning; its text (a provider's or a session file's words) is made visible first. */
  warning(message: string): void {
    this.line(this.#style.yellow(`warning: ${visible(message)}`));
  }

  /**
   * Writes a whole line (or several) to stdout, word-wrapped, starting a fresh line first if an
   * answer was mid-line and clearing the spinner's row if one is showing.
   */
  line(text: string): void {
    this.endLine();
    this.#spinner.clearRow();
    this.#out.write(`${wrapLines(text, this.columns)}\n`);
  }

  /** Ends a partly written line so the next output starts at column 0. */
  endLine(): void {
    this.#received = 0;
    const rendered = this.#markdown?.flush() ?? "";
    if (rendered !== "") {
      this.#spinner.clearRow();
      this.#out.write(rendered);
    }
    const rest = this.#answer.flush();
    if (rest !== "") this.#out.write(this.#thinking ? this.#style.dim(rest) : rest);
    if (!this.#answer.atLineStart) this.#out.write(this.#answer.push("\n"));
  }

  /**
   * The task list's count the status line shows while panto works ("tasks 3/7", "" for no list):
   * set from the session when it opens and after each line (a /clear, /rewind or fork changes the
   * list without a todo call), and from each todo call as it is accepted.
   */
  tasks(text: string): void {
    this.#spinner.tasks(text);
  }

  /** Takes the status line away (before a question is asked). */
  stopStatus(): void {
    this.#spinner.stop();
  }

  /** Stops any spinner (e.g. when a request is cancelled) and ends the line. */
  reset(): void {
    this.#spinner.stop();
    this.#held = undefined;
    this.endLine();
    this.#thinking = false;
  }

  #stream(text: string, thinking: boolean): void {
    if (text === "") return;
    if (!thinking && this.#markdown !== undefined) {
      this.#streamMarkdown(this.#markdown, text);
      return;
    }
    // The status line shares the row the answer is written on: it goes before the first token.
    this.#spinner.stop();
    if (thinking !== this.#thinking) {
      this.endLine();
      this.#thinking = thinking;
    }
    // Model text is shown, never obeyed: escape sequences in it are made visible.
    const out = this.#answer.push(visible(text.replace(/\r\n/g, "\n")));
    if (out !== "") this.#out.write(thinking ? this.#style.dim(out) : out);
  }

  /** Markdown is written a whole block at a time; until a block is complete the status line counts what came. */
  #streamMarkdown(markdown: MarkdownStream, text: string): void {
    if (this.#thinking) {
      this.endLine();
      this.#thinking = false;
    }
    if (this.#received === 0) this.#spinner.relabel("writing the answer");
    this.#received += text.length;
    this.#spinner.progress(this.#received);
    // Model text is shown, never obeyed: escape sequences in it are made visible.
    const out = markdown.push(visible(text.replace(/\r\n/g, "\n")));
    if (out === "") return;
    this.#spinner.clearRow();
    this.#out.write(out);
  }
}

/** "retrying in 2.4s (attempt 2: overloaded)", counting down; then "waiting for the retry (attempt 2)". */
function retryLabel(attempt: number, delayMs: number, reason: string): (now: number) => string {
  const due = Date.now() + delayMs;
  const shown = visible(reason);
  const why = shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
  return (now) =>
    now < due
      ? `retrying in ${((due - now) / 1000).toFixed(1)}s (attempt ${attempt}: ${why})`
      : `waiting for the retry (attempt ${attempt})`;
}
