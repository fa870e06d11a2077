import type { Interface } from "node:readline";
import { visible } from "../../../runtime/format-text.js";
import type { Style } from "../../shared/style.js";
import type { MutableOutput } from "./mutable-output.js";
import type { TerminalRenderer } from "./terminal-renderer.js";

/** What the user answered about a draft. */
export type DraftAnswer = "yes" | "edit" | "no";

const QUESTION =
  "Start a new session with this first prompt? y (yes), e (edit it in $VISUAL/$EDITOR first), n (no): ";

/**
 * The question after a draft is shown (`/handoff`): one line answers it, y, e or n (any case;
 * "yes", "edit" and "no" too), anything else repeats the choices. Ctrl-C or Ctrl-D answer no.
 */
export class DraftReview {
  readonly #renderer: TerminalRenderer;
  readonly #style: Style;
  #pending: { output: MutableOutput; muted: boolean; resolve: (answer: DraftAnswer) => void } | undefined;

  constructor(renderer: TerminalRenderer, style: Style) {
    this.#renderer = renderer;
    this.#style = style;
  }

  /** True while the question waits: the next line typed is its answer. */
  get waiting(): boolean {
    return this.#pending !== undefined;
  }

  /** Shows `draft` and asks; resolves with the answer. */
  ask(rl: Interface, output: MutableOutput, draft: string): Promise<DraftAnswer> {
    const muted = output.muted;
    output.muted = false;
    this.#renderer.line(this.#style.dim("── handoff draft ──"));
    // The model wrote it: escape sequences and control characters are shown, not obeyed.
    this.#renderer.line(visible(draft));
    this.#renderer.line(this.#style.dim("── end of draft ──"));
    return new Promise((resolve) => {
      this.#pending = { output, muted, resolve };
      rl.setPrompt(this.#style.yellow(QUESTION));
      rl.prompt();
    });
  }

  /** Takes a typed line as the answer, or repeats the choices. */
  answer(rl: Interface, line: string): void {
    const word = line.trim().toLowerCase();
    const answer: DraftAnswer | undefined =
      word === "y" || word === "yes"
        ? "yes"
        : word === "e" || word === "edit"
          ? "edit"
          : word === "n" || word === "no"
            ? "no"
            : undefined;
    if (answer === undefined) {
      this.#renderer.line(this.#style.dim("  answer y (start it), e (edit it first) or n (do not start it)"));
      rl.prompt();
      return;
    }
    this.#settle(answer);
  }

  /** Ctrl-C or Ctrl-D while waiting: no. */
  cancel(): void {
    if (this.#pending === undefined) return;
    this.#renderer.line(this.#style.dim("\n  not started"));
    this.#settle("no");
  }

  #settle(answer: DraftAnswer): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#pending = undefined;
    pending.output.muted = pending.muted;
    pending.resolve(answer);
  }
}
