import { constants, type Stats } from "node:fs";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import path from "node:path";
import type { HeldFile, HeldOpen } from "../sandbox/held-file.js";
import type { SandboxLayout } from "../sandbox/sandbox-layout.js";
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

/**
 * Opens the regular file a tool works on: in a sandbox (`layout`), through openHeldFile, so what is
 * opened is what the policy allows even if the path changes meanwhile (`absolute` is then the real
 * path checkAccess returned); without one, by its path. `write` creates it (and its folders) when
 * missing. A pipe, device or folder is refused and closed; nothing is truncated here.
 */
export async function openToolFile(
  absolute: string,
  shown: string,
  toolName: string,
  how: HeldOpen,
  layout: SandboxLayout | undefined,
): Promise<HeldFile> {
  // held-file.ts is loaded with the first file a tool opens in a sandbox, not with every run.
  const file =
    layout === undefined
      ? await openByPath(absolute, how)
      : await (await import("../sandbox/held-file.js")).openHeldFile(layout, absolute, shown, how);
  try {
    const info = await file.handle.stat();
    refuseSpecialFile(info, shown, toolName);
    if (info.isDirectory()) throw new ToolError(`${shown} is a directory`);
    return file;
  } catch (error) {
    await file.handle.close().catch(() => undefined);
    throw error;
  }
}

/** Without a sandbox: the path as given, symlinks followed (the tools have the user's rights). */
async function openByPath(absolute: string, how: HeldOpen): Promise<HeldFile> {
  if (how === "read")
    return { handle: await open(absolute, READ_ONLY | NO_WAIT), created: false, readable: true };
  if (how === "update")
    return { handle: await open(absolute, constants.O_RDWR | NO_WAIT), created: false, readable: true };
  try {
    return { handle: await open(absolute, constants.O_RDWR | NO_WAIT), created: false, readable: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES")
      return { handle: await open(absolute, constants.O_WRONLY | NO_WAIT), created: false, readable: false };
    if (code !== "ENOENT") throw error;
  }
  await mkdir(path.dirname(absolute), { recursive: true });
  const handle = await open(absolute, constants.O_RDWR | constants.O_CREAT | NO_WAIT, 0o666);
  return { handle, created: true, readable: true };
}

/** A regular file's whole text (UTF-8), opened as openToolFile does. */
export async function readRegularFile(
  absolute: string,
  shown: string,
  toolName: string,
  layout?: SandboxLayout,
): Promise<string> {
  const { handle } = await openToolFile(absolute, shown, toolName, "read", layout);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * Replaces an open file's whole content with `text`: written from offset 0 whatever the
 * descriptor's position (a read before moved it), then cut to its length.
 */
export async function replaceContent(handle: FileHandle, text: string): Promise<void> {
  const data = Buffer.from(text, "utf8");
  let written = 0;
  while (written < data.length) {
    const { bytesWritten } = await handle.write(data, written, data.length - written, written);
    written += bytesWritten;
  }
  await handle.truncate(data.length);
}
