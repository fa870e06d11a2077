import { formatTokens, visible } from "../../../runtime/format-text.js";
import type { Style } from "../../shared/style.js";
import { fitWidth, textWidth } from "./text-width.js";

type Output = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CANCEL_HINT = "Ctrl-C cancels";

/** What the status line says it waits for: fixed text, or text worked out at each redraw (a countdown). */
export type StatusLabel = string | ((now: number) => string);

interface Shown {
  timer: NodeJS.Timeout;
  label: StatusLabel;
  started: number;
  /** Characters received so far (a compaction's summary, an answer being written), 0 for none. */
  characters: number;
  noun: string;
}

/**
 * The one-row status display on stderr while panto waits: a spinner, what it waits for (the model,
 * a retry, a tool, a compaction), characters received, the elapsed time and "Ctrl-C cancels". It
 * always fits on one row (a row that wraps could not be redrawn in place and would fill the
 * screen), clears itself before anything else is written, and is dim only when colour is on.
 * Without a terminal nothing is drawn; {@link announce} prints its label once instead.
 */
export class StatusLine {
  readonly #err: Output;
  readonly #style: Style;
  #shown: Shown | undefined;
  /** The task list's count ("tasks 3/7"), shown while a list is in force; "" for none. */
  #tasks = "";

  constructor(err: Output, style: Style) {
    this.#err = err;
    this.#style = style;
  }

  /** Starts (or restarts, clock at zero) the status with `label`. */
  start(label: StatusLabel): void {
    this.stop();
    if (this.#err.isTTY !== true) return;
    this.#shown = {
      label,
      started: Date.now(),
      characters: 0,
      noun: "characters",
      timer: setInterval(() => this.#draw(), 100),
    };
    this.#draw();
  }

  /** Like {@link start}, but without a terminal the label is printed once as a line of its own. */
  announce(label: string): void {
    if (this.#err.isTTY !== true) this.#err.write(`${label}…\n`);
    else this.start(label);
  }

  /** Changes what the status says, keeping its clock (a retry of the same request); starts it if stopped. */
  relabel(label: StatusLabel): void {
    if (this.#shown === undefined) this.start(label);
    else {
      this.#shown.label = label;
      this.#shown.characters = 0;
      this.#draw();
    }
  }

  /** Characters received so far, shown as "1.2k characters of summary" (`noun`). */
  progress(characters: number, noun = "characters"): void {
    if (this.#shown === undefined) return;
    this.#shown.characters = characters;
    this.#shown.noun = noun;
  }

  /**
   * The task list's count to show beside the clock ("tasks 3/7"), or "" once no list is in force:
   * kept across starts, since the list outlives any one wait; redrawn at once when showing.
   */
  tasks(text: string): void {
    this.#tasks = text;
    if (this.#shown !== undefined) this.#draw();
  }

  get showing(): boolean {
    return this.#shown !== undefined;
  }

  /** Clears the status row so a line can be written there; the next tick draws it again below. */
  clearRow(): void {
    if (this.#shown !== undefined) this.#err.write("\r\u001b[2K");
  }

  stop(): void {
    if (this.#shown === undefined) return;
    clearInterval(this.#shown.timer);
    this.#shown = undefined;
    this.#err.write("\r\u001b[2K");
  }

  #draw(): void {
    const shown = this.#shown;
    if (shown === undefined) return;
    const now = Date.now();
    const ticks = Math.floor((now - shown.started) / 100);
    const frame = FRAMES[ticks % FRAMES.length] ?? "";
    const label = typeof shown.label === "string" ? shown.label : shown.label(now);
    const received = shown.characters === 0 ? "" : `${formatTokens(shown.characters)} ${shown.noun}`;
    // One column short of the width: writing into the last column makes some terminals wrap.
    const room = (this.#err.columns ?? 80) - 1;
    const text = fitStatus(frame, label, received, formatElapsed(now - shown.started), room, this.#tasks);
    this.#err.write(`\r\u001b[2K${this.#style.dim(text)}`);
  }
}

/**
 * The fullest status that fits in `room` columns: the label is cut first, then the cancel hint
 * goes, then the label shrinks to its first word ("compacting") and the count to "12k chars".
 * `tasks` (the task list's "tasks 3/7", "" for none) stays to the last: it is short, and the one
 * figure of the work's progress.
 */
export function fitStatus(
  frame: string,
  rawLabel: string,
  received: string,
  elapsed: string,
  room: number,
  tasks = "",
): string {
  const join = (...parts: string[]): string => parts.filter((part) => part !== "").join(" · ");
  // One row whatever the label holds: a line break in it would leave a row that cannot be redrawn.
  const label = visible(rawLabel.replace(/\s+/g, " "));
  const full = join(`${frame} ${label}…`, received, elapsed, tasks, CANCEL_HINT);
  if (textWidth(full) <= room) return full;
  const tail = ` · ${join(received, elapsed, tasks, CANCEL_HINT)}`;
  if (textWidth(tail) + 16 <= room) return `${fitWidth(`${frame} ${label}`, room - textWidth(tail))}${tail}`;
  const word = `${frame} ${label.split(" ")[0] ?? ""}…`;
  const short = join(word, received.replace(/ characters.*$/, " chars"), elapsed, tasks);
  // Too narrow still: the count of characters goes before the task list's.
  if (tasks !== "" && textWidth(short) > room) return fitWidth(join(word, elapsed, tasks), room);
  return fitWidth(short, room);
}

/** 4200 -> "4s", 75000 -> "1m 15s". */
export function formatElapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  return `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, "0")}s`;
}
