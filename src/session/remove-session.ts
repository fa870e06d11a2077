import { open, rm, stat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { readSessionHeader } from "./read-session-header.js";
import type { SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";
import { acquireSessionLock } from "./session-lock.js";
import { imagesFolder, tasksFolder } from "./session-paths.js";

/** A session file deleted: its header, size and when it was last written. */
export interface RemovedSession {
  path: string;
  header: SessionHeader;
  bytes: number;
  /** The file's last modification (ms): everything the session wrote elsewhere is older. */
  modifiedMs: number;
}

/**
 * Deletes a session file, holding its lock meanwhile, so a session another panto has open is
 * refused (a SessionError naming the holder's pid). Its lock files go with it.
 */
export async function removeSession(path: string): Promise<RemovedSession> {
  const absolute = resolve(path);
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined || !info.isFile())
    throw new SessionError(absolute, `there is no session file ${absolute}`);
  const file = await open(absolute, "r");
  const { header } = await readSessionHeader(absolute, file, info.size).finally(() => file.close());
  const lock = await acquireSessionLock(absolute);
  try {
    await unlink(absolute);
    // Its images are its own (a fork copies the ones it names), and so are its commands' logs.
    await rm(imagesFolder(absolute), { recursive: true, force: true });
    await rm(tasksFolder(absolute), { recursive: true, force: true });
  } finally {
    await lock.release();
  }
  return { path: absolute, header, bytes: info.size, modifiedMs: info.mtimeMs };
}
