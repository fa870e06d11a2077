import { type Dirent, readdirSync } from "node:fs";
import path from "node:path";

/** What a walk of the writable folders found that git may read. */
export interface FoundRepositories {
  /** Git directories: `.git` folders, and folders git takes for one (bare repositories). */
  gitDirectories: string[];
  /** `.git` files (pointers naming a git directory) and `.git` symlinks. */
  pointers: string[];
  /** `.gitmodules` files. */
  gitmodules: string[];
  /** Set when the walk stopped at the limit: folders were left unvisited. */
  stoppedAt?: number;
}

/**
 * Every repository inside `roots`, at any depth, by one readdir per folder (no stat): symlinks
 * are not followed (git only follows them for the `.git` entry, reported as a pointer), and no git
 * directory is walked into (its submodules and worktrees are the caller's). At most
 * `maxFolders` folders are read, so a huge tree costs a bounded time.
 */
export function findRepositories(roots: readonly string[], maxFolders: number): FoundRepositories {
  const found: FoundRepositories = { gitDirectories: [], pointers: [], gitmodules: [] };
  const stack = [...roots].reverse();
  let visited = 0;
  for (let folder = stack.pop(); folder !== undefined; folder = stack.pop()) {
    if (visited === maxFolders) {
      found.stoppedAt = visited;
      break;
    }
    visited += 1;
    const entries = readEntries(folder);
    if (looksLikeGitDirectory(entries)) {
      found.gitDirectories.push(folder);
      continue;
    }
    for (const entry of entries) {
      const at = path.join(folder, entry.name);
      if (entry.name === ".git") {
        (entry.isDirectory() ? found.gitDirectories : found.pointers).push(at);
      } else if (entry.name === ".gitmodules") {
        found.gitmodules.push(at);
      } else if (entry.isDirectory()) {
        stack.push(at);
      }
    }
  }
  return found;
}

/**
 * As git's own test (setup.c, is_git_directory): a HEAD, and objects and refs folders or a
 * commondir file naming where they are. Git run in such a folder uses its config, unless the
 * folder has a `.git` entry, which git looks at first.
 */
function looksLikeGitDirectory(entries: readonly Dirent[]): boolean {
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has(".git") || !names.has("HEAD")) return false;
  return (names.has("objects") && names.has("refs")) || names.has("commondir");
}

function readEntries(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}
