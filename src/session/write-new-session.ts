import { open, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { makeFolder } from "../core/index.js";
import { toLine, writeAll } from "./file-session.js";
import type { SessionEntry, SessionHeader } from "./session-entries.js";

/**
 * Writes a whole new session file (its header, then `entries`) under a temporary name and renames
 * it, so the file appears whole or not at all (as a fork does). `path` must not exist. Used by
 * `panto import`, which builds every entry before writing any.
 */
export async function writeNewSession(
  path: string,
  header: SessionHeader,
  entries: readonly SessionEntry[],
): Promise<string> {
  const target = resolve(path);
  await makeFolder(dirname(target), 0o700);
  const temporary = `${target}.importing`;
  const file = await open(temporary, "wx", 0o600);
  try {
    await writeAll(file, Buffer.from([header, ...entries].map(toLine).join(""), "utf8"));
    await file.close();
    await rename(temporary, target);
    return target;
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
