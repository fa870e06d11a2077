import { readFileSync, unlinkSync } from "node:fs";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { draftPath, removeAbandonedDrafts } from "./lock-drafts.js";
import { isProcessAlive, processStartTimeMs } from "./process-liveness.js";
import { SessionError } from "./session-error.js";

/** What a lock file holds. */
export interface LockOwner {
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  started: string;
}

/** One lock file this process holds. */
export interface HeldLockFile {
  readonly lockPath: string;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): Promise<void>;
}

/** A pid whose process started this long after the lock was taken is a reuse, not the holder. */
const PID_REUSE_MARGIN_MS = 5_000;
const TAKEOVER_ATTEMPTS = 5;

/** Locks this process holds, removed on exit even when close() was never called. */
const heldLocks = new Map<string, string>();
let exitHookInstalled = false;

function releaseAllOnExit(): void {
  for (const [lockPath, content] of heldLocks) {
    try {
      if (readFileSync(lockPath, "utf8") === content) unlinkSync(lockPath);
    } catch {
      // Best effort: a lock left behind is taken over by the next run.
    }
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Creates the lock file with its full content in one atomic step (write a private draft, hard-link
 * it into place), so no other process ever sees it empty. Falls back to O_EXCL where hard links
 * are not supported. Returns false when a lock already exists.
 */
async function tryCreateLock(lockPath: string, content: string): Promise<boolean> {
  const draft = draftPath(lockPath, "draft");
  await writeFile(draft, content, { mode: 0o600 });
  try {
    await link(draft, lockPath);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    return await createExclusively(lockPath, content);
  } finally {
    await unlink(draft).catch(() => undefined);
  }
}

async function createExclusively(lockPath: string, content: string): Promise<boolean> {
  try {
    await writeFile(lockPath, content, { flag: "wx", mode: 0o600 });
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
}

function parseOwner(raw: string): LockOwner | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockOwner>;
    if (typeof value.pid !== "number" || typeof value.hostname !== "string") return undefined;
    return { pid: value.pid, hostname: value.hostname, started: String(value.started ?? "") };
  } catch {
    return undefined;
  }
}

/** Whether the lock's owner may still be running. Unknown hosts count as running: we cannot check. */
async function ownerMayBeAlive(owner: LockOwner): Promise<boolean> {
  if (owner.hostname !== hostname()) return true;
  if (!(await isProcessAlive(owner.pid))) return false;
  const startedMs = Date.parse(owner.started);
  const processStartMs = await processStartTimeMs(owner.pid);
  if (Number.isNaN(startedMs) || processStartMs === undefined) return true;
  return processStartMs <= startedMs + PID_REUSE_MARGIN_MS;
}

function inUseError(sessionPath: string, lockPath: string, owner: LockOwner): SessionError {
  const host = owner.hostname === hostname() ? "" : ` on host ${owner.hostname}`;
  return new SessionError(
    sessionPath,
    `session file ${sessionPath} is in use by another panto (pid ${owner.pid}${host}, lock file ${lockPath})`,
  );
}

/**
 * Moves a stale lock out of the way. The rename is atomic, so of several processes doing this at
 * once only one moves any given file; if what it moved is no longer the stale lock it judged (a
 * fresh lock taken meanwhile), it puts it back.
 */
async function removeStaleLock(lockPath: string, staleContent: string): Promise<void> {
  const aside = draftPath(lockPath, "stale");
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  const moved = await readFile(aside, "utf8").catch(() => "");
  if (moved !== staleContent) await link(aside, lockPath).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

async function readLock(lockPath: string): Promise<string | undefined> {
  try {
    return await readFile(lockPath, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    // Unreadable: treated like an empty lock (stale).
    return "";
  }
}

function holdLock(lockPath: string, content: string): HeldLockFile {
  heldLocks.set(lockPath, content);
  if (!exitHookInstalled) {
    process.on("exit", releaseAllOnExit);
    exitHookInstalled = true;
  }
  let released = false;
  return {
    lockPath,
    async release() {
      if (released) return;
      released = true;
      heldLocks.delete(lockPath);
      if ((await readLock(lockPath)) === content) await unlink(lockPath).catch(() => undefined);
    },
  };
}

/**
 * Takes the exclusive lock file `lockPath` for `sessionPath`, holding `{pid, hostname, started}`.
 * A lock whose process is alive on this host makes this throw a SessionError naming that pid; a
 * lock left by a killed process (dead pid, reused pid, empty or unreadable file) is taken over,
 * and drafts that killed processes left beside it are removed.
 */
export async function takeLockFile(sessionPath: string, lockPath: string): Promise<HeldLockFile> {
  await removeAbandonedDrafts(lockPath);
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), started: new Date().toISOString() };
  const content = JSON.stringify(owner);
  for (let attempt = 0; attempt < TAKEOVER_ATTEMPTS; attempt++) {
    if (await tryCreateLock(lockPath, content)) return holdLock(lockPath, content);
    const existing = await readLock(lockPath);
    if (existing === undefined) continue;
    const existingOwner = parseOwner(existing);
    // An empty or unparsable lock is a process killed while writing it (or a crash of the machine).
    if (existingOwner !== undefined && (await ownerMayBeAlive(existingOwner))) {
      throw inUseError(sessionPath, lockPath, existingOwner);
    }
    await removeStaleLock(lockPath, existing);
  }
  throw new SessionError(
    sessionPath,
    `could not lock session ${sessionPath}: lock file ${lockPath} keeps changing (another panto starting at the same time?)`,
  );
}
