import { mkdir, stat } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathKind } from "./path-kind.js";

/** A folder or file panto cannot use; `message` names the path and says what is wrong with it. */
export class PathProblem extends Error {
  readonly path: string;

  constructor(path: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "PathProblem";
    this.path = path;
  }
}

export function isPathProblem(value: unknown): value is PathProblem {
  return value instanceof PathProblem;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** What a failed file-system call on `path` means, in words (the errno code kept in brackets). */
export function describeFileError(path: string, error: unknown): string {
  const code = errnoOf(error);
  const why: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "permission denied",
    EROFS: "it is on a read-only file system",
    ENOSPC: "no space is left on its device",
    EDQUOT: "the disk quota is used up",
    ENOTDIR: "part of the path is a file, not a folder",
    EISDIR: "it is a folder",
    ENAMETOOLONG: "the name is too long",
    ELOOP: "it goes through a loop of symbolic links",
    // A virtual file system such as /proc or /sys answers ENOENT to a new name even under a folder that exists.
    ENOENT: "it does not exist and cannot be created there",
  };
  const reason = (code === undefined ? undefined : why[code]) ?? (error as Error | undefined)?.message;
  return `${path}: ${reason ?? String(error)}${code === undefined ? "" : ` (${code})`}`;
}

/** "folder", "missing", or what stands there instead, in words. */
async function kindAt(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return info.isDirectory() ? "folder" : (pathKind(info) ?? "a file");
  } catch (error) {
    // ENOTDIR: a file stands higher up the path; walking up finds and names it.
    if (errnoOf(error) === "ENOENT" || errnoOf(error) === "ENOTDIR") return "missing";
    throw new PathProblem(path, `cannot use ${describeFileError(path, error)}`, { cause: error });
  }
}

/**
 * `mkdir -p` that always ends. Node's own recursive mkdir spins forever under a virtual file system
 * (/proc answers ENOENT to every new name, and Node then retries the parent endlessly), so this
 * walks up to the nearest existing ancestor and creates each missing folder below it once. A file
 * in the way or a folder that cannot be created is a PathProblem naming it. Returns the folders it
 * created, outermost first.
 */
export async function makeFolder(path: string, mode = 0o777): Promise<string[]> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    const kind = await kindAt(current);
    if (kind === "folder") break;
    if (kind !== "missing")
      throw new PathProblem(current, `cannot create folder ${path}: ${current} is ${kind}, not a folder`);
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  const created: string[] = [];
  for (const folder of missing.reverse()) {
    try {
      await mkdir(folder, { mode });
    } catch (error) {
      // Another process may have made it meanwhile.
      if (errnoOf(error) === "EEXIST" && (await kindAt(folder)) === "folder") continue;
      throw new PathProblem(folder, `cannot create folder ${describeFileError(folder, error)}`, {
        cause: error,
      });
    }
    created.push(folder);
  }
  return created;
}
