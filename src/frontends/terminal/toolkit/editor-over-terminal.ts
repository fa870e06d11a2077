import type { Interface } from "node:readline";
import type { EditText } from "../../../runtime/front-end.js";
import type { CliIo } from "../../shared/cli-io.js";
import { editorFor } from "../../shared/edit-in-editor.js";
import type { KeyInput } from "./key-input.js";

/**
 * The interactive session's {@link EditText}: hands the terminal to $VISUAL/$EDITOR (readline
 * paused, raw mode off) and takes it back afterwards.
 */
export function editorOverTerminal(
  io: Pick<CliIo, "stdin" | "stdout" | "env">,
  rl: Interface | undefined,
  keys: KeyInput | undefined,
): EditText {
  return async (text) => {
    const stdin = io.stdin as NodeJS.ReadableStream & {
      isTTY?: boolean;
      setRawMode?: (raw: boolean) => void;
    };
    const raw = stdin.isTTY === true && typeof stdin.setRawMode === "function";
    rl?.pause();
    if (raw) stdin.setRawMode?.(false);
    keys?.disablePaste();
    try {
      return await editorFor(io.env, "inherit")(text);
    } finally {
      // An editor leaves bracketed paste as it likes (vim turns it off): set it again.
      keys?.enablePaste(io.stdout);
      if (raw) stdin.setRawMode?.(true);
      rl?.resume();
    }
  };
}
