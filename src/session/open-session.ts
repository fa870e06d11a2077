import { randomUUID } from "node:crypto";
import { type FileHandle, open, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { makeFolder, pathKind } from "../core/index.js";
import { FileSession, type LoadedFile, toLine, writeAll } from "./file-session.js";
import { readActiveSuffix } from "./read-active-suffix.js";
import type { OpenSessionOptions, Session } from "./session.js";
import { SESSION_VERSION, type SessionHeader, type SessionParent } from "./session-entries.js";
import { SessionError } from "./session-error.js";
import { acquireSessionLock, type SessionLock, sameFile } from "./session-lock.js";

/** A header for a session started now in `cwd`; `parent` names the session it was started from. */
export function newSessionHeader(cwd: string, parent?: SessionParent): SessionHeader {
  return {
    type: "session",
    version: SESSION_VERSION,
    id: randomUUID(),
    created: new Date().toISOString(),
    cwd,
    ...(parent === undefined ? {} : { parent }),
  };
}

async function createHeader(file: FileHandle, header: SessionHeader): Promise<LoadedFile> {
  await file.chmod(0o600);
  await writeAll(file, Buffer.from(toLine(header), "utf8"));
  return { header, entries: [], endsWithNewline: true, warnings: [] };
}

async function loadOrCreate(
  path: string,
  file: FileHandle,
  options: OpenSessionOptions,
): Promise<LoadedFile> {
  const { size } = await file.stat();
  // An empty file is a session that crashed before its header landed, or one the user made: start it.
  if (size === 0) return await createHeader(file, options.header ?? newSessionHeader(options.cwd));
  return await readActiveSuffix(path, file, size);
}

function defaultWarn(message: string): void {
  process.emitWarning(message, "PantoSessionWarning");
}

async function openLocked(path: string, lock: SessionLock, options: OpenSessionOptions): Promise<Session> {
  let file: FileHandle;
  try {
    // O_APPEND: every write lands at the end, whatever else happens to the offset.
    file = await open(path, "a+", 0o600);
  } catch (cause) {
    throw new SessionError(path, `cannot open session ${path}: ${(cause as Error).message}`, { cause });
  }
  try {
    // The name may have been pointed at another file since the lock was taken: never write to that one.
    if (!sameFile(await file.stat(), lock.identity)) {
      throw new SessionError(path, `session ${path} was replaced while it was being opened; try again`);
    }
    const loaded = await loadOrCreate(path, file, options);
    const warn = options.onWarning ?? defaultWarn;
    for (const warning of loaded.warnings) warn(warning);
    return new FileSession(path, file, lock, loaded, warn, options.redact);
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the file, creating it (and its folders, 0700; file 0600) with a header if it does not
 * exist. Takes the lock: a second process opening the same file gets a SessionError naming the
 * holder's pid. Resuming reads only the active suffix (from the latest compaction entry on).
 */
export async function openSession(path: string, options: OpenSessionOptions): Promise<Session> {
  const absolute = resolve(path);
  const lock = await lockSessionFile(absolute);
  try {
    return await openLocked(absolute, lock, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Makes the session's folder and locks the file, creating it empty when missing; the caller opens it
 * later with `openLockedSession` or releases the lock (an empty file stays a session not yet started).
 */
export async function lockSessionFile(path: string): Promise<SessionLock> {
  const absolute = resolve(path);
  try {
    await makeFolder(dirname(absolute), 0o700);
  } catch (cause) {
    throw new SessionError(absolute, `session ${absolute}: ${(cause as Error).message}`, { cause });
  }
  await refuseNonRegularFile(absolute);
  return await acquireSessionLock(absolute);
}

/** Opens a file `lockSessionFile` locked; the lock is released when the session closes (or this fails). */
export async function openLockedSession(
  path: string,
  lock: SessionLock,
  options: OpenSessionOptions,
): Promise<Session> {
  try {
    return await openLocked(resolve(path), lock, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** A folder, pipe or device where the session file should be: opening a FIFO to append would wait forever. */
async function refuseNonRegularFile(path: string): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  const kind = info === undefined ? undefined : pathKind(info);
  if (kind !== undefined)
    throw new SessionError(path, `cannot use ${path} as a session file: it is ${kind}, not a regular file`);
}
