import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { ToolError } from "./tool-error.js";

/**
 * Opening never waits: a named pipe without a writer would block `open` (and a thread of Node's
 * pool) forever. Ignored for regular files; absent on Windows, which has no such files.
 */
const NO_WAIT = constants.O_NONBLOCK ?? 0;

/** What a file that is neither a regular file nor a directory is, in words; undefined otherwise. */
export function specialFileKind(info: Stats): string | undefined {
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  return undefined;
}

/**
 * Throws a ToolError naming the path and what it is when it is a pipe, socket or device: reading
 * one can block forever or never end, and writing one can block until someone reads.
 */
export function refuseSpecialFile(info: Stats, shown: string, toolName: string): void {
  const kind = specialFileKind(info);
  if (kind === undefined) return;
  throw new ToolError(
    `${shown} is ${kind}, not a regular file; ${toolName} only works on regular files (a pipe or device could block it forever)`,
  );
}

/**
 * Opens a regular file without ever blocking, and checks what was opened (not just what a
 * stat before it saw: the name may have been pointed at a pipe in between).
 */
export async function openRegularFile(
  absolute: string,
  shown: string,
  toolName: string,
  flags: number,
): Promise<FileHandle> {
  const handle = await open(absolute, flags | NO_WAIT, 0o666);
  try {
    const info = await handle.stat();
    refuseSpecialFile(info, shown, toolName);
    if (info.isDirectory()) throw new ToolError(`${shown} is a directory`);
    return handle;
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

export const READ_ONLY = constants.O_RDONLY;
/** Create if missing, but do not truncate yet: the file is checked first. */
const WRITE_CREATE = constants.O_WRONLY | constants.O_CREAT;

/** A regular file's whole text (UTF-8). */
export async function readRegularFile(absolute: string, shown: string, toolName: string): Promise<string> {
  const handle = await openRegularFile(absolute, shown, toolName, READ_ONLY);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Replaces a regular file's content (creating it if missing); a pipe or device is refused untouched. */
export async function writeRegularFile(
  absolute: string,
  shown: string,
  toolName: string,
  content: string,
): Promise<void> {
  const handle = await openRegularFile(absolute, shown, toolName, WRITE_CREATE);
  try {
    await handle.truncate(0);
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}
