import {
  closeSync,
  constants,
  type Dirent,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
} from "node:fs";
import { type FileHandle, mkdir, open, readdir } from "node:fs/promises";
import path from "node:path";
import { type AccessIntent, checkHostPath } from "./check-access.js";
import type { SandboxLayout } from "./sandbox-layout.js";

/*
 * The file tools' I/O, held to the sandbox's policy by the kernel rather than by a check before
 * the act. A check of a path and a later open of the same path are two lookups: a command in the
 * sandbox (a `task` subagent's, or a background loop) can swap a folder for a symlink to ~/.ssh
 * between them (rename, or renameat2's atomic exchange), and the open follows it. So the tools
 * check what they opened, not what they meant to open:
 *
 * Linux. The folder is opened first (following symlinks: harmless for a folder, O_DIRECTORY
 * refuses anything else before a driver sees it) and its real path read back from the kernel
 * (readlink of /proc/self/fd/N: where that descriptor is, whatever the path does next). The file's
 * place (that folder + its name) is checked against the layout's rules, then the file is opened
 * through the folder's descriptor, `/proc/self/fd/N/NAME` (the magic link resolves to the opened
 * folder itself, so the lookup cannot be redirected: Node has no openat, this is its equivalent)
 * with O_NOFOLLOW (a symlink swapped in as the last name is refused, not followed), and the new
 * descriptor's own real path is checked again. Missing folders of a write are made the same way,
 * one name at a time inside the verified folder. Reads and writes then go through the descriptor
 * only, so what is read or written is the file that was allowed. A created file is made with
 * O_CREAT|O_EXCL|O_NOFOLLOW (never through a name that appeared meanwhile); an existing one is
 * rewritten in place through its verified descriptor, which keeps its mode, owner and hard links
 * (a temporary file renamed into place would gain nothing here: the descriptor is already the
 * verified file, and the rename would turn a project symlink into a copy). Every descriptor is
 * verified on its own, so parallel tools (subagents) add no window.
 *
 * Chosen over running the I/O in a bubblewrap helper by measurement (`npm run bench`, the sandbox
 * rows; medians of 31 calls on a 4 KB file, 2 shared cores under load): read, write and edit in a
 * sandbox take 1.3, 0.8, 0.8 ms with these checks against 1.1, 1.2, 1.3 ms with the check before
 * the act alone (the difference is within the noise; the checks add one folder open and two
 * readlinks), while a helper started under bubblewrap would add what `bash true` adds in the
 * sandbox: 5-15 ms per call. See docs/ARCHITECTURE.md.
 *
 * macOS. The counterpart of /proc/self/fd is fcntl(F_GETPATH), which Node cannot call, and
 * /dev/fd/N neither names a descriptor's path nor works as a folder in a path. There the tools
 * open the resolved path with O_NOFOLLOW and compare the descriptor's device and inode with what
 * the path leads to right after (lstat of its realpath, which must be the path itself): a swap
 * undone in between is caught when the file opened is not the allowed one, but a swap repeated
 * between the two lookups after the open is not, and a missing folder is made before its place is
 * verified. This narrows the window without closing it; closing it needs F_GETPATH (a native
 * addon) or the I/O inside sandbox-exec, and Seatbelt still confines every command.
 */

/** Where descriptors can be asked for their path (and folders opened through them). */
const DESCRIPTORS = "/proc/self/fd";
const HELD_BY_DESCRIPTOR = process.platform === "linux";

/** Opening never waits (a FIFO without a writer would block) and never takes a terminal. */
const OPEN_BASE = (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0);

/** How a tool opens a file: an existing one to `read` or `update` (edit), or one to `write` (created when missing). */
export type HeldOpen = "read" | "update" | "write";

/** A file a tool opened, verified. */
export interface HeldFile {
  handle: FileHandle;
  /** This open created it. */
  created: boolean;
  /** False when it could only be opened for writing (its old text cannot be read). */
  readable: boolean;
}

/** The path changed between the check and the open (a symlink is where a file or folder was): nothing was read or written. */
export class ChangedWhileOpened extends Error {
  readonly code = "ECHANGED";
  constructor(shown: string) {
    super(
      `${shown} changed while being opened (a symlink took the place of a file or folder on its path); nothing was read or written through it`,
    );
    this.name = "ChangedWhileOpened";
  }
}

/**
 * Opens the file at `real` (a host path with its symlinks resolved, from checkAccess) for a tool,
 * verified against `layout` as described above; a SandboxRefusal names the rule when what the
 * kernel opened is not allowed. The caller closes `handle`.
 */
export async function openHeldFile(
  layout: SandboxLayout,
  real: string,
  shown: string,
  how: HeldOpen,
): Promise<HeldFile> {
  if (!HELD_BY_DESCRIPTOR) return openNarrowed(layout, real, shown, how);
  const intent: AccessIntent = how === "read" ? "read" : "write";
  const name = path.basename(real) || ".";
  const folder =
    how === "write" ? reachFolder(layout, path.dirname(real), shown) : openFolder(path.dirname(real), shown);
  try {
    checkHostPath(layout, path.join(folder.path, name), intent, shown);
    const file = await openInside(`${DESCRIPTORS}/${folder.fd}/${name}`, how, shown);
    try {
      checkDescriptor(layout, file.handle.fd, intent, shown);
      return file;
    } catch (error) {
      await file.handle.close().catch(() => undefined);
      throw error;
    }
  } finally {
    closeSync(folder.fd);
  }
}

/**
 * Runs `list` on the folder at `real` once it is opened and verified readable, with the path that
 * reaches that very folder (`/proc/self/fd/N` on Linux): ls and glob list what was allowed.
 */
export async function withHeldFolder<T>(
  layout: SandboxLayout,
  real: string,
  shown: string,
  list: (inside: string) => Promise<T>,
): Promise<T> {
  if (!HELD_BY_DESCRIPTOR) {
    checkHostPath(layout, checkedRealpath(real, shown), "read", shown);
    return list(real);
  }
  const folder = openFolder(real, shown);
  try {
    checkHostPath(layout, folder.path, "read", shown);
    return await list(`${DESCRIPTORS}/${folder.fd}`);
  } finally {
    closeSync(folder.fd);
  }
}

/** The entries of the folder at `real`, read through its verified descriptor. */
export function readHeldFolder(layout: SandboxLayout, real: string, shown: string): Promise<Dirent[]> {
  return withHeldFolder(layout, real, shown, (inside) => readdir(inside, { withFileTypes: true }));
}

/**
 * Where the kernel says descriptor `fd` is. A file removed meanwhile reads back "PATH (deleted)":
 * its former path is what is checked (an unlinked file can still be reached through the descriptor).
 */
export function descriptorPath(fd: number): string {
  const where = readlinkSync(`${DESCRIPTORS}/${fd}`);
  if (fstatSync(fd).nlink === 0 && where.endsWith(" (deleted)")) return where.slice(0, -" (deleted)".length);
  return where;
}

function checkDescriptor(layout: SandboxLayout, fd: number, intent: AccessIntent, shown: string): string {
  const where = descriptorPath(fd);
  checkHostPath(layout, where, intent, shown);
  return where;
}

/** An opened folder and where the kernel says it is. */
interface Folder {
  fd: number;
  path: string;
}

function openFolder(directory: string, shown: string): Folder {
  const fd = relabel(() => openSync(directory, DIRECTORY), shown);
  try {
    return { fd, path: descriptorPath(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * The folder a written file goes in, made when missing: its deepest existing ancestor is opened,
 * then each missing name is checked, made and opened inside the folder before it, never through a
 * path that could be swapped meanwhile.
 */
function reachFolder(layout: SandboxLayout, directory: string, shown: string): Folder {
  const missing: string[] = [];
  let current = directory;
  let folder: Folder | undefined;
  while (folder === undefined) {
    try {
      folder = openFolder(current, shown);
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      missing.unshift(path.basename(current));
      current = parent;
    }
  }
  for (const name of missing) {
    const parent: Folder = folder;
    try {
      checkHostPath(layout, path.join(parent.path, name), "write", shown);
      const inside = `${DESCRIPTORS}/${parent.fd}/${name}`;
      relabel(() => mkdirIfMissing(inside), shown);
      const fd = relabel(() => openSync(inside, DIRECTORY | NO_FOLLOW), shown);
      folder = { fd, path: "" };
      folder.path = descriptorPath(fd);
    } catch (error) {
      if (folder !== parent) closeSync(folder.fd);
      throw error;
    } finally {
      closeSync(parent.fd);
    }
  }
  return folder;
}

function mkdirIfMissing(inside: string): void {
  try {
    mkdirSync(inside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** Opens `inside` (a name in a verified folder) without following a symlink there. */
async function openInside(inside: string, how: HeldOpen, shown: string): Promise<HeldFile> {
  const at = (flags: number, mode?: number) =>
    relabelAsync(() => open(inside, flags | OPEN_BASE | NO_FOLLOW, mode), shown);
  if (how === "read") return { handle: await at(constants.O_RDONLY), created: false, readable: true };
  if (how === "update") return { handle: await at(constants.O_RDWR), created: false, readable: true };
  // A name that appears between the two opens is opened as existing on the next round.
  for (let round = 0; round < 3; round += 1) {
    try {
      return { handle: await at(constants.O_RDWR), created: false, readable: true };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EACCES") return { handle: await at(constants.O_WRONLY), created: false, readable: false };
      if (code !== "ENOENT") throw error;
    }
    try {
      const handle = await at(constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o666);
      return { handle, created: true, readable: true };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new ChangedWhileOpened(shown);
}

/** macOS: see the comment at the top; narrows the window without closing it. */
async function openNarrowed(
  layout: SandboxLayout,
  real: string,
  shown: string,
  how: HeldOpen,
): Promise<HeldFile> {
  const intent: AccessIntent = how === "read" ? "read" : "write";
  if (how === "write") await mkdir(path.dirname(real), { recursive: true });
  const flags = how === "read" ? constants.O_RDONLY : constants.O_RDWR;
  let created = false;
  const handle = await relabelAsync(() => open(real, flags | OPEN_BASE | NO_FOLLOW), shown).catch(
    async (error: NodeJS.ErrnoException) => {
      if (how !== "write" || error.code !== "ENOENT") throw error;
      created = true;
      return open(real, flags | OPEN_BASE | NO_FOLLOW | constants.O_CREAT | constants.O_EXCL, 0o666);
    },
  );
  try {
    const opened = await handle.stat();
    const now = checkedRealpath(real, shown);
    const there = lstatSync(now);
    if (now !== real || there.dev !== opened.dev || there.ino !== opened.ino)
      throw new ChangedWhileOpened(shown);
    checkHostPath(layout, now, intent, shown);
    return { handle, created, readable: true };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

function checkedRealpath(real: string, shown: string): string {
  return relabel(() => realpathSync(real), shown);
}

/**
 * Runs a file system call, giving its error the tool's name for the path instead of the
 * descriptor path it went through (the code stays, so the tools word it as usual); ELOOP from
 * O_NOFOLLOW means a symlink took a name's place since the check.
 */
function relabel<T>(call: () => T, shown: string): T {
  try {
    return call();
  } catch (error) {
    throw relabeled(error, shown);
  }
}

async function relabelAsync<T>(call: () => Promise<T>, shown: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw relabeled(error, shown);
  }
}

function relabeled(error: unknown, shown: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === undefined) return error;
  if (code === "ELOOP") return new ChangedWhileOpened(shown);
  const syscall = (error as NodeJS.ErrnoException).syscall ?? "open";
  return Object.assign(new Error(`${shown}: ${syscall} failed (${code})`), { code });
}
