import type { AgentEvent } from "../agent/index.js";
import {
  formatCompactionLine,
  formatTokens,
  formatToolCall,
  formatToolResult,
  type Style,
} from "./render.js";

type Output = NodeJS.WritableStream & { isTTY?: boolean };

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Renders agent events in the interactive terminal: answers stream to stdout as they arrive, tool
 * calls and notices get a line each, and a compaction shows a spinner with a character count on
 * stderr while its summary streams.
 */
export class TerminalRenderer {
  readonly #out: Output;
  readonly #err: Output;
  readonly #style: Style;
  /** Whether the last thing written to stdout ended a line. */
  #atLineStart = true;
  #thinking = false;
  #spinner: { timer: NodeJS.Timeout; label: string; started: number; characters: number } | undefined;

  constructor(out: Output, err: Output, style: Style) {
    this.#out = out;
    this.#err = err;
    this.#style = style;
  }

  render(event: AgentEvent): void {
    switch (event.type) {
      case "text-delta":
      case "thinking-delta":
        this.#stream(event.text, event.type === "thinking-delta");
        break;
      case "assistant-message":
        this.#thinking = false;
        this.endLine();
        break;
      case "compaction-started":
        this.#startSpinner(
          `${event.trigger === "overflow" ? "context overflow: " : ""}compacting with ${event.model}`,
        );
        break;
      case "compaction-progress":
        if (this.#spinner !== undefined) this.#spinner.characters = event.characters;
        break;
      default: {
        if (event.type.startsWith("compaction")) this.#stopSpinner();
        const line = this.#noticeFor(event);
        if (line !== undefined) this.line(line);
      }
    }
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
          `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`,
        );
      case "compaction":
        // A manual /compact prints its own fuller report afterwards.
        return event.record.trigger === "overflow"
          ? style.green(
              `✓ context overflow: ${formatCompactionLine(event.record, event.tokensBefore, event.tokensAfter)}`,
            )
          : undefined;
      case "compaction-failed":
        return style.red(`✗ compaction failed (${event.code}): ${event.message}`);
      case "compaction-skipped":
        return event.trigger === "overflow"
          ? style.yellow(`context overflow: compaction cannot help: ${event.reason}`)
          : undefined;
      case "overflow-retry":
        return style.dim("↻ retrying the request once against the compacted context");
      case "warning":
        return style.yellow(`warning: ${event.message}`);
      default:
        return undefined;
    }
  }

  warning(message: string): void {
    this.line(this.#style.yellow(`warning: ${message}`));
  }

  /** Writes a whole line to stdout, starting a fresh line first if an answer was mid-line. */
  line(text: string): void {
    this.endLine();
    this.#out.write(`${text}\n`);
  }

  /** Ends a partly written line so the next output starts at column 0. */
  endLine(): void {
    if (!this.#atLineStart) this.#out.write("\n");
    this.#atLineStart = true;
  }

  /** Stops any spinner (e.g. when a request is cancelled). */
  reset(): void {
    this.#stopSpinner();
    this.#thinking = false;
    this.endLine();
  }

  #stream(text: string, thinking: boolean): void {
    if (text === "") return;
    if (thinking !== this.#thinking) {
      this.endLine();
      this.#thinking = thinking;
    }
    this.#out.write(thinking ? this.#style.dim(text) : text);
    this.#atLineStart = text.endsWith("\n");
  }

  #startSpinner(label: string): void {
    this.#stopSpinner();
    this.endLine();
    if (this.#err.isTTY !== true) {
      this.#err.write(`${label}…\n`);
      return;
    }
    const spinner = {
      label,
      started: Date.now(),
      characters: 0,
      timer: setInterval(() => this.#drawSpinner(), 100),
    };
    this.#spinner = spinner;
    this.#drawSpinner();
  }

  #drawSpinner(): void {
    const spinner = this.#spinner;
    if (spinner === undefined) return;
    const elapsed = Math.floor((Date.now() - spinner.started) / 1000);
    const frame = SPINNER[Math.floor((Date.now() - spinner.started) / 100) % SPINNER.length] ?? "";
    const received =
      spinner.characters === 0 ? "" : ` · ${formatTokens(spinner.characters)} characters of summary`;
    this.#err.write(`\r\u001b[2K${frame} ${spinner.label}…${received} · ${elapsed}s (Ctrl-C cancels)`);
  }

  #stopSpinner(): void {
    if (this.#spinner === undefined) return;
    clearInterval(this.#spinner.timer);
    this.#spinner = undefined;
    this.#err.write("\r\u001b[2K");
  }
}
