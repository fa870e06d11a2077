import { open, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { describeFileError } from "../core/index.js";
import { ensureIdentityLockDirectory } from "./identity-lock-directory.js";
import { type HeldLockFile, takeLockFile } from "./lock-file.js";
import { SessionError } from "./session-error.js";

/** What makes a file the same file whatever name reaches it (a symbolic link, a hard link, `..`). */
export interface FileIdentity {
  dev: number;
  ino: number;
}

/** An exclusive hold on one session file. */
export interface SessionLock {
  /** The lock beside the session file's real path: `<real path>.lock`. */
  readonly lockPath: string;
  /** The file the lock was taken for; the caller checks that the file it opens is this one. */
  readonly identity: FileIdentity;
  /** Removes the lock files if they are still ours; idempotent. */
  release(): Promise<void>;
}

export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

/** Opens the session file, creating it empty (0600) when missing, and returns its identity. */
async function sessionFileIdentity(sessionPath: string): Promise<FileIdentity> {
  try {
    const file = await open(sessionPath, "a", 0o600);
    try {
      const { dev, ino } = await file.stat();
      return { dev, ino };
    } finally {
      await file.close();
    }
  } catch (cause) {
    throw new SessionError(sessionPath, `cannot open session ${describeFileError(sessionPath, cause)}`, {
      cause,
    });
  }
}

async function takeIdentityLock(sessionPath: string, identity: FileIdentity): Promise<HeldLockFile> {
  const directory = await ensureIdentityLockDirectory();
  return await takeLockFile(sessionPath, join(directory, `${identity.dev}-${identity.ino}.lock`));
}

/** Throws if the name no longer reaches the file that was locked (it was replaced meanwhile). */
async function assertStillSameFile(sessionPath: string, identity: FileIdentity): Promise<void> {
  const now = await stat(sessionPath).catch(() => undefined);
  if (now === undefined || !sameFile(now, identity)) {
    throw new SessionError(
      sessionPath,
      `session ${sessionPath} was replaced while it was being locked; try again`,
    );
  }
}

/**
 * Locks the session file itself, whatever name reaches it. Two lock files hold `{pid, hostname,
 * started}`: `<real path>.lock` beside the file (so a symbolic link or a `..` path meets the same
 * lock) and `<device>-<inode>.lock` in a private per-user folder (so a hard link, a second name of
 * the same file, does too). The file is created first if missing, since a file's identity exists
 * only once the file does. A lock whose process is alive on this host makes this throw a
 * SessionError naming that pid; a lock left by a killed process is taken over.
 */
export async function acquireSessionLock(sessionPath: string): Promise<SessionLock> {
  const identity = await sessionFileIdentity(sessionPath);
  const byPath = await takeLockFile(
    sessionPath,
    `${await realpath(sessionPath).catch(() => sessionPath)}.lock`,
  );
  let byIdentity: HeldLockFile | undefined;
  try {
    byIdentity = await takeIdentityLock(sessionPath, identity);
    await assertStillSameFile(sessionPath, identity);
  } catch (error) {
    await byIdentity?.release();
    await byPath.release();
    throw error;
  }
  const held = byIdentity;
  return {
    lockPath: byPath.lockPath,
    identity,
    async release() {
      await held.release();
      await byPath.release();
    },
  };
}
