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
  name?: string;
  ctrl?: boolean;
}

const MAX_ROWS = 14;

/**
 * A list to choose one row from: ↑/↓ move (skipping disabled rows), Enter picks, Esc or Ctrl-C
 * cancels (resolves undefined). Starts on row `start` (default: the last row that can be chosen).
 * Draws below the cursor and erases itself when done; stdin is left paused and out of raw mode.
 */
export function pickFromList<T>(
  title: string,
  items: readonly ListItem<T>[],
  io: ListPickerIo,
  start?: number,
): Promise<T | undefined> {
  const enabled = items.flatMap((item, index) => (item.disabled === true ? [] : [index]));
  let selected = start ?? enabled.at(-1) ?? 0;
  let drawn = 0;
  const draw = (final = false): void => {
    const erase = drawn === 0 ? "" : `\r${drawn > 1 ? `\u001b[${drawn - 1}A` : ""}\u001b[J`;
    const lines = final ? [] : frame(title, items, selected, io.stdout);
    io.stdout.write(`${erase}${lines.join("\n")}`);
    drawn = lines.length;
  };
  const move = (by: number): void => {
    const position = enabled.indexOf(selected);
    const next = enabled[Math.min(enabled.length - 1, Math.max(0, (position === -1 ? 0 : position) + by))];
    if (next !== undefined) selected = next;
  };
  return new Promise((resolve) => {
    const { stdin } = io;
    const finish = (choice: T | undefined): void => {
      stdin.off("keypress", onKey);
      draw(true);
      io.stdout.write("\u001b[?25h");
      stdin.setRawMode?.(false);
      stdin.pause();
      resolve(choice);
    };
    const onKey = (_text: string | undefined, key: Key | undefined): void => {
      const name = key?.name;
      if (name === "escape" || (key?.ctrl === true && name === "c")) finish(undefined);
      else if (name === "return" || name === "enter") {
        const item = items[selected];
        if (item !== undefined && item.disabled !== true) finish(item.value);
      } else if (name === "up" || name === "down") {
        move(name === "up" ? -1 : 1);
        draw();
      }
    };
    emitKeypressEvents(stdin);
    stdin.setRawMode?.(true);
    stdin.on("keypress", onKey);
    stdin.resume();
    io.stdout.write("\u001b[?25l");
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
