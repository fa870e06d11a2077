import type { Stats } from "node:fs";
import { lstat, readFile, readlink } from "node:fs/promises";
import type { FileMode } from "../session/index.js";

/** What is at a path now, as a checkpoint sees it. */
export type PathState =
  | { kind: "absent" }
  | { kind: "file"; mode: FileMode; size: number; stats: Stats }
  | { kind: "directory" }
  /** A pipe, socket or device: never read. */
  | { kind: "special" };

/** The git mode of a regular file or link: executable when its owner may run it. */
export function gitModeOf(stats: Stats): FileMode {
  if (stats.isSymbolicLink()) return "120000";
  return (stats.mode & 0o100) !== 0 ? "100755" : "100644";
}

/** The permission bits a recorded version keeps of a file: those of a regular file, none of a link. */
export function permOf(state: { mode: FileMode; stats: Stats }): { perm?: number } {
  return state.mode === "120000" ? {} : { perm: state.stats.mode & 0o7777 };
}

/** What is at `path` (not following a final symbolic link). */
export async function pathState(path: string): Promise<PathState> {
  let stats: Stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    throw error;
  }
  if (stats.isDirectory()) return { kind: "directory" };
  if (!stats.isFile() && !stats.isSymbolicLink()) return { kind: "special" };
  return { kind: "file", mode: gitModeOf(stats), size: stats.size, stats };
}

/** A file's content as git stores it: the bytes of a regular file, the target of a link. */
export async function readContent(path: string, mode: FileMode): Promise<Buffer> {
  if (mode === "120000") return await readlink(path, { encoding: "buffer" });
  return await readFile(path);
}
