import { formatTokens } from "./render.js";
import { fitWidth, textWidth } from "./text-width.js";

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * The one-row progress display of a compaction on stderr: a spinner, the elapsed time and the
 * characters of summary received. It always fits on one row (a row that wraps could not be redrawn
 * in place and would fill the screen), and it clears itself before anything else is written.
 */
export class ProgressSpinner {
  readonly #err: Output;
  #state: { timer: NodeJS.Timeout; label: string; started: number; characters: number } | undefined;

  constructor(err: Output) {
    this.#err = err;
  }

  /** Starts (or restarts) the spinner; without a terminal, prints the label once instead. */
  start(label: string): void {
    this.stop();
    if (this.#err.isTTY !== true) {
      this.#err.write(`${label}…\n`);
      return;
    }
    this.#state = { label, started: Date.now(), characters: 0, timer: setInterval(() => this.#draw(), 100) };
    this.#draw();
  }

  /** Characters of summary received so far. */
  progress(characters: number): void {
    if (this.#state !== undefined) this.#state.characters = characters;
  }

  /** Clears the spinner's row so a line can be written there; the next tick draws it again below. */
  clearRow(): void {
    if (this.#state !== undefined) this.#err.write("\r\u001b[2K");
  }

  stop(): void {
    if (this.#state === undefined) return;
    clearInterval(this.#state.timer);
    this.#state = undefined;
    this.#err.write("\r\u001b[2K");
  }

  #draw(): void {
    const state = this.#state;
    if (state === undefined) return;
    const ticks = Math.floor((Date.now() - state.started) / 100);
    const frame = FRAMES[ticks % FRAMES.length] ?? "";
    const elapsed = `${Math.floor(ticks / 10)}s`;
    const received =
      state.characters === 0 ? "" : ` · ${formatTokens(state.characters)} characters of summary`;
    const full = `${frame} ${state.label}…${received} · ${elapsed} (Ctrl-C cancels)`;
    // One column short of the width: writing into the last column makes some terminals wrap.
    const room = (this.#err.columns ?? 80) - 1;
    const short = `${frame} compacting… ${elapsed}${state.characters === 0 ? "" : ` · ${formatTokens(state.characters)} chars`}`;
    const text = textWidth(full) <= room ? full : fitWidth(short, room);
    this.#err.write(`\r\u001b[2K${text}`);
  }
}
