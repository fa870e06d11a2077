import { EXIT_OK } from "../../cli/exit-status.js";
import type { EditText } from "../../cli/terminal/edit-in-editor.js";

/** What a slash command produced. Each mode renders it its own way (stdout, JSON, terminal). */
export interface SlashResult {
  exitCode: number;
  /** The command asks to leave (/exit). */
  exit: boolean;
  /** The command's report; print mode writes it to stdout. */
  output: string;
  error?: { code: string; message: string };
}

/** What a slash command may need from the mode running it. */
export interface SlashIo {
  /** Opens the user's editor on a text (`/summary edit`). */
  editText: EditText;
  /** The tools the user allowed with `a` in this session (interactive only), for /tools. */
  grantedTools?: () => readonly string[];
}

export const ok = (output: string): SlashResult => ({ exitCode: EXIT_OK, exit: false, output });

export const failed = (exitCode: number, code: string, message: string): SlashResult => ({
  exitCode,
  exit: false,
  output: "",
  error: { code, message },
});
