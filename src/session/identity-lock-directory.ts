import { chmod, lstat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeFolder } from "../core/index.js";
import { SessionError } from "./session-error.js";

/**
 * The folder of the locks keyed on a session file's identity (device and inode). A hard link gives
 * the same file another name in any folder, so these locks must live in one place that every panto
 * of this user finds: a private folder in the system's temporary directory.
 */
export function identityLockDirectory(): string {
  const uid = process.getuid?.();
  return join(tmpdir(), uid === undefined ? "panto-locks" : `panto-locks-${uid}`);
}

function unsafe(directory: string, why: string): SessionError {
  return new SessionError(
    directory,
    `cannot use the session lock folder ${directory}: ${why}; remove it (panto recreates it) or set TMPDIR`,
  );
}

/**
 * Creates the folder (0700) if needed and checks it is a real folder owned by this user, so another
 * user cannot plant or remove locks in it. Returns its path.
 */
export async function ensureIdentityLockDirectory(): Promise<string> {
  const directory = identityLockDirectory();
  await makeFolder(directory, 0o700);
  const info = await lstat(directory);
  if (!info.isDirectory()) throw unsafe(directory, "it is not a folder");
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) throw unsafe(directory, `it belongs to user ${info.uid}`);
  if ((info.mode & 0o077) !== 0) await chmod(directory, 0o700);
  return directory;
}
