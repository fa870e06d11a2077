import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { GIT_CONTROL_FILES, WORKTREE_CONTROL_FILES } from "./git-control-files.js";
import { hooksPathsFor } from "./git-hooks-path.js";
import { isWithin, pathState, realpathOrUndefined } from "./path-state.js";

/**
 * At the top of every writable folder, what runs code outside the sandbox later if the model could
 * change it: panto's project config (hooks, MCP servers), the MCP servers other agents and panto
 * read from `.mcp.json`; and `.git` (see protectionFor). Worktree files such as `.gitmodules` stay
 * writable: git ignores the commands they could name, and they are reviewed like any source file.
 */
export const PROTECTED_NAMES = [".panto", ".mcp.json"] as const;

/**
 * Inside a git directory: what can make git run a program (GIT_CONTROL_FILES says why for each),
 * and in each linked worktree's control folder its own. The rest (objects, refs, index) stays
 * writable so commits work inside the sandbox.
 */
export const PROTECTED_GIT_NAMES: readonly string[] = GIT_CONTROL_FILES.map((entry) => entry.name);

/** What protecting one writable folder takes, as the file system is now. */
export interface Protection {
  /** Paths that must not change (lexical paths, and the real paths symlinks among them lead to). */
  protectedPaths: string[];
  /** Git directories named by a `.git` pointer file (worktrees, submodules): writable like the folder, minus their protected names. */
  gitDirectories: string[];
  /** `.git` directories, kept in place so they cannot be renamed and replaced. */
  pinned: string[];
}

/**
 * The protected paths at the top of `root` (a writable folder, symlinks resolved). `.git` itself is
 * protected when it is missing (no new repository whose config would run on the user's next git
 * command), a pointer file or a symlink; a `.git` directory is pinned instead, and the git
 * directory it is, or the pointer names, has its protected names; so has the hooks folder any git
 * config in effect there names (core.hooksPath: husky's `.husky`, a global `.githooks`).
 */
export function protectionFor(
  root: string,
  userGit: { userConfigs: readonly string[]; home: string },
): Protection {
  const protection: Protection = { protectedPaths: [], gitDirectories: [], pinned: [] };
  for (const name of PROTECTED_NAMES) protectPath(path.join(root, name), protection);
  const git = path.join(root, ".git");
  const state = pathState(git);
  if (state.kind !== "directory") protection.protectedPaths.push(git);
  const real = realpathOrUndefined(git);
  if (real === undefined) return protection;
  const hooksFolders = (gitDirectory: string): void => {
    const query = { gitDirectory, worktree: root, ...userGit };
    // Only inside the folder: a mount elsewhere (a concealed /tmp) would show what it hides.
    for (const folder of hooksPathsFor(query)) {
      if (isWithin(folder, root) && folder !== root) protectPath(folder, protection);
    }
  };
  if (pathState(real).kind === "directory") {
    protection.pinned.push(real);
    protectGitDirectory(real, protection);
    hooksFolders(real);
    return protection;
  }
  if (real !== git) protection.protectedPaths.push(real);
  for (const directory of pointedGitDirectories(real)) {
    protection.gitDirectories.push(directory);
    protectGitDirectory(directory, protection);
    hooksFolders(directory);
  }
  return protection;
}

/** A path and, when it is a symlink, where it leads: both must stay as they are. */
function protectPath(absolute: string, protection: Protection): void {
  protection.protectedPaths.push(absolute);
  if (pathState(absolute).kind !== "symlink") return;
  const real = realpathOrUndefined(absolute);
  if (real !== undefined && real !== absolute) protection.protectedPaths.push(real);
}

function protectGitDirectory(directory: string, protection: Protection): void {
  for (const name of PROTECTED_GIT_NAMES) protectPath(path.join(directory, name), protection);
  for (const worktree of subfolders(path.join(directory, "worktrees"))) {
    for (const name of WORKTREE_CONTROL_FILES) protectPath(path.join(worktree, name), protection);
  }
}

/** The folders directly inside `folder` (none when it is missing or unreadable). */
function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(folder, entry.name));
  } catch {
    return [];
  }
}

/**
 * The git directory a `.git` file names (`gitdir: PATH`, relative to the file's folder) and, for a
 * linked worktree, the common directory its `commondir` file names; real paths, existing ones only.
 */
export function pointedGitDirectories(pointerFile: string): string[] {
  const text = readText(pointerFile);
  const match = text?.match(/^gitdir:\s*(.+?)\s*$/m);
  if (match?.[1] === undefined) return [];
  const gitDirectory = realpathOrUndefined(path.resolve(path.dirname(pointerFile), match[1]));
  if (gitDirectory === undefined) return [];
  const common = readText(path.join(gitDirectory, "commondir"))?.trim();
  const commonDirectory =
    common === undefined || common === ""
      ? undefined
      : realpathOrUndefined(path.resolve(gitDirectory, common));
  return commonDirectory === undefined || commonDirectory === gitDirectory
    ? [gitDirectory]
    : [gitDirectory, commonDirectory];
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}
