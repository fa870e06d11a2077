import { type Stats, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * The nearest ancestor of `cwd` (itself included) holding a `.panto/` directory or a `.git`
 * (directory, or file as in worktrees and submodules); else `cwd`.
 *
 * The user-level `.panto` (`pantoHome`, and `~/.panto`) does not mark a project: otherwise every
 * directory under home without a repository would make home the project and read the user files twice.
 */
export function findProjectRoot(cwd: string, options: { pantoHome?: string } = {}): string {
  const start = path.resolve(cwd);
  const userDirectories = new Set([path.join(os.homedir(), ".panto")]);
  if (options.pantoHome !== undefined) userDirectories.add(path.resolve(options.pantoHome));
  for (let directory = start; ; directory = path.dirname(directory)) {
    const panto = path.join(directory, ".panto");
    if (!userDirectories.has(panto) && isDirectory(panto)) return directory;
    if (exists(path.join(directory, ".git"))) return directory;
    if (path.dirname(directory) === directory) return start;
  }
}

function isDirectory(target: string): boolean {
  return statOrUndefined(target)?.isDirectory() ?? false;
}

function exists(target: string): boolean {
  return statOrUndefined(target) !== undefined;
}

/** An unreadable ancestor (EACCES) is treated like one without markers rather than failing startup. */
function statOrUndefined(target: string): Stats | undefined {
  try {
    return statSync(target, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
