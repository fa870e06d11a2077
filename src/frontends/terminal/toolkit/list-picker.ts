import { emitKeypressEvents } from "node:readline";
import { fitWidth } from "./text-width.js";

export interface ListPickerIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream & { columns?: number; rows?: number };
}

/** One row of a list to choose from; rows that cannot be chosen are shown dimmed and skipped. */
export interface ListItem<T> {
  text: string;
  value: T;
  disabled?: boolean;
}

interface Key {
  name?: string | undefined;
  ctrl?: boolean | undefined;
}

const MAX_ROWS = 14;

/** Key presses as node:readline reports them, from wherever the caller takes them. */
export type KeyListener = (text: string | undefined, key: Key | undefined) => void;

/** Where a picker reads keys and draws: `listen` returns the function that stops listening. */
export interface PickerSurface {
  listen(listener: KeyListener): () => void;
  stdout: NodeJS.WritableStream & { columns?: number; rows?: number };
}

/**
 * A list to choose one row from, in a terminal: stdin is put in raw mode for it, and left paused
 * and out of raw mode after. See `pickWithKeys`.
 */
export function pickFromList<T>(
  title: string,
  items: readonly ListItem<T>[],
  io: ListPickerIo,
  start?: number,
): Promise<T | undefined> {
  const { stdin } = io;
  const surface: PickerSurface = {
    stdout: io.stdout,
    listen(listener) {
      emitKeypressEvents(stdin);
      stdin.setRawMode?.(true);
      stdin.on("keypress", listener);
      stdin.resume();
      return () => {
        stdin.off("keypress", listener);
        stdin.setRawMode?.(false);
        stdin.pause();
      };
    },
  };
  return pickWithKeys(title, items, surface, start);
}

/**
 * A list to choose one row from: ↑/↓ move (skipping disabled rows), Enter picks, Esc or Ctrl-C
 * cancels (resolves undefined). Starts on row `start` (default: the last row that can be chosen).
 * Draws below the cursor and erases itself when done.
 */
export function pickWithKeys<T>(
  title: string,
  items: readonly ListItem<T>[],
  surface: PickerSurface,
  start?: number,
): Promise<T | undefined> {
  const enabled = items.flatMap((item, index) => (item.disabled === true ? [] : [index]));
  let selected = start ?? enabled.at(-1) ?? 0;
  let drawn = 0;
  const draw = (final = false): void => {
    const erase = drawn === 0 ? "" : `\r${drawn > 1 ? `\u001b[${drawn - 1}A` : ""}\u001b[J`;
    const lines = final ? [] : frame(title, items, selected, surface.stdout);
    surface.stdout.write(`${erase}${lines.join("\n")}`);
    drawn = lines.length;
  };
  const move = (by: number): void => {
    const position = enabled.indexOf(selected);
    const next = enabled[Math.min(enabled.length - 1, Math.max(0, (position === -1 ? 0 : position) + by))];
    if (next !== undefined) selected = next;
  };
  return new Promise((resolve) => {
    let stop: () => void = () => {};
    const finish = (choice: T | undefined): void => {
      stop();
      draw(true);
      surface.stdout.write("\u001b[?25h");
      resolve(choice);
    };
    stop = surface.listen((_text, key) => {
      const name = key?.name;
      if (name === "escape" || (key?.ctrl === true && name === "c")) finish(undefined);
      else if (name === "return" || name === "enter") {
        const item = items[selected];
        if (item !== undefined && item.disabled !== true) finish(item.value);
      } else if (name === "up" || name === "down") {
        move(name === "up" ? -1 : 1);
        draw();
      }
    });
    surface.stdout.write("\u001b[?25l");
    draw();
  });
}

function frame<T>(
  title: string,
  items: readonly ListItem<T>[],
  selected: number,
  stdout: ListPickerIo["stdout"],
): string[] {
  const columns = Math.max(40, stdout.columns ?? 80) - 1;
  const room = Math.max(3, Math.min(MAX_ROWS, (stdout.rows ?? 24) - 2));
  const first = Math.min(Math.max(0, selected - room + 1), Math.max(0, items.length - room));
  const rows = items.slice(first, first + room).map((item, index) => {
    const chosen = first + index === selected;
    const line = fitWidth(`${chosen ? ">" : " "}${item.text}`, columns);
    if (chosen) return `\u001b[7m${line}\u001b[0m`;
    return item.disabled === true ? `\u001b[2m${line}\u001b[0m` : line;
  });
  return [fitWidth(title, columns), ...rows];
}
