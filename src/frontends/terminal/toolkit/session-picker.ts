import { emitKeypressEvents } from "node:readline";
import type { SessionSummary } from "../../../session/index.js";
import { formatTime, oneLine, promptWithLineage, shortIdMap } from "./format-session-list.js";
import { fitWidth } from "./text-width.js";

export interface PickerIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream & { columns?: number; rows?: number };
}

interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  sequence?: string;
}

/** Sessions shown at once; the list scrolls to keep the selection in view. */
const MAX_ROWS = 12;

/**
 * A small full-keyboard picker over `sessions` (newest first): up/down move, typing filters by the
 * first prompt as shown (case-insensitive; attached files and stdin are not shown, so not matched), Backspace deletes, Enter picks, Esc or Ctrl-C cancels (resolves
 * undefined). It draws below the cursor and erases itself when done.
 */
export function pickSession(
  sessions: readonly SessionSummary[],
  io: PickerIo,
): Promise<SessionSummary | undefined> {
  const short = shortIdMap(sessions);
  let filter = "";
  let selected = 0;
  let drawn = 0;
  // Only what a row shows (lineage and typed prompt, not attached files' contents) is matched.
  const shown = new Map(
    sessions.map((session) => [session, (promptWithLineage(session, short) ?? "").replace(/\s+/g, " ")]),
  );
  const matches = (): SessionSummary[] =>
    sessions.filter((session) => (shown.get(session) ?? "").toLowerCase().includes(filter.toLowerCase()));
  const draw = (final = false): void => {
    const erase = drawn === 0 ? "" : `\r${drawn > 1 ? `\u001b[${drawn - 1}A` : ""}\u001b[J`;
    const lines = final ? [] : frame(matches(), selected, filter, short, io.stdout);
    io.stdout.write(`${erase}${lines.join("\n")}`);
    drawn = lines.length;
  };
  return new Promise((resolve) => {
    const { stdin } = io;
    const finish = (choice: SessionSummary | undefined): void => {
      stdin.off("keypress", onKey);
      draw(true);
      io.stdout.write("\u001b[?25h");
      stdin.setRawMode?.(false);
      stdin.pause();
      resolve(choice);
    };
    const onKey = (text: string | undefined, key: Key | undefined): void => {
      const list = matches();
      const action = keyAction(text, key);
      if (action.type === "cancel") finish(undefined);
      else if (action.type === "pick") {
        if (list[selected] !== undefined) finish(list[selected]);
      } else {
        if (action.type === "move")
          selected = Math.min(Math.max(0, list.length - 1), Math.max(0, selected + action.by));
        if (action.type === "erase") filter = filter.slice(0, -1);
        if (action.type === "type") filter += action.text;
        if (action.type === "erase" || action.type === "type") selected = 0;
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

type KeyAction =
  | { type: "cancel" | "pick" | "erase" | "none" }
  | { type: "move"; by: number }
  | { type: "type"; text: string };

/** What one key press means to the picker. */
function keyAction(text: string | undefined, key: Key | undefined): KeyAction {
  const name = key?.name;
  if (name === "escape" || (key?.ctrl === true && name === "c")) return { type: "cancel" };
  if (name === "return" || name === "enter") return { type: "pick" };
  if (name === "up" || (key?.ctrl === true && name === "p")) return { type: "move", by: -1 };
  if (name === "down" || (key?.ctrl === true && name === "n")) return { type: "move", by: 1 };
  if (name === "backspace") return { type: "erase" };
  if (text !== undefined && key?.ctrl !== true && key?.meta !== true && /^[^\p{Cc}]+$/u.test(text))
    return { type: "type", text };
  return { type: "none" };
}

function frame(
  list: readonly SessionSummary[],
  selected: number,
  filter: string,
  short: ReadonlyMap<string, string>,
  stdout: PickerIo["stdout"],
): string[] {
  const columns = Math.max(40, stdout.columns ?? 80) - 1;
  const room = Math.max(3, Math.min(MAX_ROWS, (stdout.rows ?? 24) - 3));
  const first = Math.min(Math.max(0, selected - room + 1), Math.max(0, list.length - room));
  const rows = list.slice(first, first + room).map((session, index) => {
    const marker = first + index === selected ? "\u001b[7m>" : " ";
    const head = `${marker} ${short.get(session.id) ?? session.id}  ${formatTime(session.modified)}  ${String(session.turns).padStart(3)} ${session.turns === 1 ? "turn " : "turns"}  `;
    const line = `${head}${oneLine(promptWithLineage(session, short), Math.max(10, columns - head.length + (marker.length - 1)))}`;
    return first + index === selected ? `${line}\u001b[0m` : line;
  });
  return [
    fitWidth("Resume a session: ↑/↓ choose, type to filter by prompt, Enter resumes, Esc cancels", columns),
    `filter: ${filter}`,
    ...(rows.length === 0 ? ["  (no session's first prompt contains that)"] : rows),
  ];
}
