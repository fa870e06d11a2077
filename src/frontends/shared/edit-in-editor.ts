import { type StdioOptions, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EditorError, type EditText } from "../../runtime/front-end.js";

/**
 * An {@link EditText} that writes the text to a private temporary file, runs `$VISUAL` (else
 * `$EDITOR`) on it through the shell (so "code --wait" works), and reads the file back once the
 * editor exits with status 0. `stdio` says where the editor's terminal goes: the interactive
 * session hands over its own; print and JSON modes keep stdout clean by sending the editor's
 * output to stderr.
 */
export function editorFor(env: NodeJS.ProcessEnv, stdio: StdioOptions): EditText {
  return async (text) => {
    const editor = (env.VISUAL ?? "").trim() || (env.EDITOR ?? "").trim();
    if (editor === "")
      throw new EditorError(
        "no editor: set $VISUAL or $EDITOR (a program that edits the file named by its last argument and exits); the summary is unchanged",
      );
    const folder = await mkdtemp(join(tmpdir(), "panto-summary-"));
    const path = join(folder, "summary.md");
    try {
      await writeFile(path, text, { mode: 0o600 });
      await runEditor(editor, path, env, stdio);
      return await readFile(path, "utf8");
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}

function runEditor(editor: string, path: string, env: NodeJS.ProcessEnv, stdio: StdioOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", `${editor} "$1"`, "panto-editor", path], { env, stdio });
    child.on("error", (error) =>
      reject(
        new EditorError(`could not run the editor "${editor}": ${error.message}; the summary is unchanged`),
      ),
    );
    child.on("exit", (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new EditorError(
            `the editor "${editor}" ${signal === null ? `exited with status ${code}` : `was killed by ${signal}`} (is there a terminal for it?); the summary is unchanged`,
          ),
        );
    });
  });
}
