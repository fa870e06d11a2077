import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ConfigError } from "./config-error.js";
import { withoutByteOrderMark } from "./config-json.js";
import { parseConfigText } from "./parse-config-text.js";

/**
 * Changes the config file `file` through `change`, which edits the parsed JSON (an empty object
 * when the file is missing) and returns whether it changed anything; nothing is written when it
 * did not. The old text is validated as panto reads it first (a file panto would refuse is left
 * alone: a ConfigError names it), and so is the new text before it replaces the file, whole
 * (written beside it, then renamed), so a crash leaves the old file or the new one. The folder is
 * created when missing. Returns whether the file was written.
 */
export async function rewriteConfigFile(
  file: string,
  change: (json: Record<string, unknown>) => boolean,
): Promise<boolean> {
  const text = await readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ConfigError(`${file}: cannot read it (${error.code ?? error.message})`, { file });
  });
  if (text !== undefined) parseConfigText(text, file);
  const json: Record<string, unknown> = text === undefined ? {} : JSON.parse(withoutByteOrderMark(text));
  if (!change(json)) return false;
  const next = `${JSON.stringify(json, null, 2)}\n`;
  parseConfigText(next, file);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, next, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ConfigError(`${file}: cannot write it (${(error as NodeJS.ErrnoException).code ?? error})`, {
      file,
    });
  }
  return true;
}
