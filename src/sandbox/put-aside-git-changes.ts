import { lstatSync, readdirSync, readFileSync, renameSync, type Stats } from "node:fs";
import path from "node:path";
import { type FolderListings, findRepositories } from "./find-repositories.js";
import { GIT_CONTROL_FILES } from "./git-control-files.js";
import { GIT_HOOK_NAMES, hooksPathsFor } from "./git-hooks-path.js";
import { GIT_STATE_FILES, GIT_STATE_FOLDERS, stateProgram } from "./git-state-folders.js";
import { isWithin, realpathOrUndefined } from "./path-state.js";
import { isSafeGitConfig } from "./safe-git-config.js";

/** What the check after a command did, for the model and the user. */
export interface GitChangeReport {
  /** One line per control file moved aside (or that could not be). */
  refused: string[];
  /** Changes worth a look that were left in place (`.gitmodules`), and a walk cut short. */
  notes: string[];
}

export interface GitChangeCheck {
  /** The writable folders, symlinks resolved. */
  roots: readonly string[];
  /** Changes at or after this ctime (ns) were made by the command (see Sandbox.prepare). */
  since: bigint;
  now?: Date;
  /** Folders read at most (default 20,000). */
  maxFolders?: number;
  /** Paths restoreWatched puts back after this check: left to it (as is what lies under them). */
  watched?: readonly string[];
  /** The user's git config files and home: a hooks folder they name (core.hooksPath) is checked as hooks/ is. */
  userGit?: { userConfigs: readonly string[]; home: string };
  /** The folders' listings from the last check, kept by the caller between commands (see FolderListings). */
  listings?: FolderListings;
}

/** A config larger than this is not read: it is put aside if it changed. */
const MAX_CONFIG_BYTES = 256 * 1024;
export const DEFAULT_MAX_FOLDERS = 20_000;

/**
 * After a command, in every repository of the writable folders at any depth (nested ones, new
 * ones, bare ones, those `.git` files point to, submodules' and worktrees'), moves aside each git
 * control file (GIT_CONTROL_FILES) the command created or changed: found by its ctime, which no
 * command can set back. Kept: a config holding only what `git init` and `git clone` write, hook
 * samples (git never runs `*.sample`), and a worktree's commondir naming its own repository, so
 * making and cloning repositories still works. The control files at the top of a writable folder
 * are read-only mounts already; this is what holds the rest to the same rule.
 */
export function putAsideGitChanges(check: GitChangeCheck): GitChangeReport {
  const maxFolders = check.maxFolders ?? DEFAULT_MAX_FOLDERS;
  const cached = check.listings === undefined ? undefined : { listings: check.listings, since: check.since };
  const found = findRepositories(check.roots, maxFolders, cached);
  const walker = new GitDirectoryCheck(
    check.since,
    maxFolders,
    check.userGit ?? { userConfigs: [], home: "/" },
  );
  for (const directory of found.gitDirectories) walker.check(directory, worktreeOf(directory));
  for (const pointer of found.pointers) {
    const target = pointerTarget(pointer);
    if (target !== undefined) walker.check(target, path.dirname(pointer));
  }
  const stamp = (check.now ?? new Date()).toISOString().replace(/[:.]/g, "-");
  const watched = check.watched ?? [];
  const refused = walker.offences
    .filter((offence) => !watched.some((at) => isWithin(offence.path, at)))
    .map((offence) => putAside(offence, stamp));
  const notes = found.gitmodules
    .filter((file) => changedSince(file, check.since))
    .map(
      (file) =>
        `${file} was changed by the command: it names submodules' URLs and paths; look at it before running git submodule update.`,
    );
  if (found.stoppedAt !== undefined) {
    notes.push(
      `The check for repositories made by the command stopped after ${found.stoppedAt} folders: look at the .git of any folder it made before running git there.`,
    );
  }
  return { refused, notes };
}

interface Offence {
  path: string;
  reason: string;
}

/** Walks git directories (each once) and collects the control files changed since `since`. */
class GitDirectoryCheck {
  readonly offences: Offence[] = [];
  readonly #seen = new Set<string>();

  constructor(
    readonly since: bigint,
    readonly maxFolders: number,
    readonly userGit: { userConfigs: readonly string[]; home: string },
  ) {}

  /** `worktree`: the repository's work tree, where a relative core.hooksPath starts (undefined: bare). */
  check(directory: string, worktree?: string): void {
    const real = realpathOrUndefined(directory);
    if (real === undefined || this.#seen.has(real)) return;
    this.#seen.add(real);
    // A folder core.hooksPath names may hold anything else (husky's scripts, a project's sources):
    // only what git runs from it is a hook there.
    for (const folder of hooksPathsFor({ gitDirectory: directory, worktree, ...this.userGit })) {
      this.#hooks(folder, (name) => GIT_HOOK_NAMES.has(name));
    }
    this.#config(path.join(directory, "config"));
    this.#config(path.join(directory, "config.worktree"));
    this.#commondir(directory);
    this.#plain(path.join(directory, "info", "attributes"), "info/attributes");
    this.#hooks(path.join(directory, "hooks"));
    this.#nested(path.join(directory, "modules"));
    for (const { name, reason } of GIT_STATE_FOLDERS) this.#state(path.join(directory, name), reason);
    for (const worktree of subfolders(path.join(directory, "worktrees"))) this.check(worktree);
  }

  #offend(at: string, name: string): void {
    const reason = GIT_CONTROL_FILES.find((entry) => entry.name === name)?.reason ?? "git reads it";
    this.offences.push({ path: at, reason: `git's ${name}: it ${reason}` });
  }

  #changed(at: string): boolean {
    return changedSince(at, this.since);
  }

  /** A changed config is put aside unless it is a plain file holding only safe keys. */
  #config(at: string): void {
    if (!this.#changed(at)) return;
    const info = lstatOrUndefined(at);
    const text = info?.isFile() && info.size <= MAX_CONFIG_BYTES ? readText(at) : undefined;
    if (text !== undefined && isSafeGitConfig(text)) return;
    this.#offend(at, path.basename(at));
  }

  #plain(at: string, name: string): void {
    if (this.#changed(at)) this.#offend(at, name);
  }

  /**
   * A changed commondir is put aside, unless it is a linked worktree's naming its own repository
   * (`worktrees/<id>/commondir` holding `../..`, as `git worktree add` writes). The common
   * directory it names is checked as well.
   */
  #commondir(directory: string): void {
    const at = path.join(directory, "commondir");
    const text = readText(at)?.trim();
    if (text === undefined || text === "") return;
    const common = path.resolve(directory, text);
    const own =
      path.basename(path.dirname(directory)) === "worktrees" &&
      common === path.dirname(path.dirname(directory));
    if (!own && this.#changed(at)) {
      this.#offend(at, "commondir");
      return;
    }
    this.check(common);
  }

  /** A changed hooks symlink, or any changed hook but the samples. */
  #hooks(at: string, isHook: (name: string) => boolean = (name) => !name.endsWith(".sample")): void {
    const info = lstatOrUndefined(at);
    if (info === undefined) return;
    if (info.isSymbolicLink() && this.#changed(at)) {
      this.#offend(at, "hooks");
      return;
    }
    const real = realpathOrUndefined(at);
    if (real === undefined) return;
    if (!(lstatOrUndefined(real)?.isDirectory() ?? false)) {
      if (this.#changed(real)) this.#offend(at, "hooks");
      return;
    }
    for (const name of entryNames(real)) {
      const hook = path.join(real, name);
      if (isHook(name) && this.#changed(hook)) this.#offend(hook, "hooks");
    }
  }

  /**
   * A rebase's, am's or cherry-pick's state folder, moved aside whole when one of its files the
   * command created or changed names a program (stateProgram), or when the folder itself became a
   * symlink or a file: what git would resume is then the model's, not the user's.
   */
  #state(at: string, reason: string): void {
    const info = lstatOrUndefined(at);
    if (info === undefined) return;
    const name = path.basename(at);
    if (!info.isDirectory()) {
      if (this.#changed(at)) this.offences.push({ path: at, reason: `git's ${name}: it ${reason}` });
      return;
    }
    for (const file of GIT_STATE_FILES) {
      const inside = path.join(at, file);
      if (!this.#changed(inside)) continue;
      // Only a plain file is read (a symlink could lead to a pipe and hold panto up).
      const plain = lstatOrUndefined(inside);
      const text = plain?.isFile() && plain.size <= MAX_CONFIG_BYTES ? readText(inside) : undefined;
      const program = text === undefined ? "it is not a plain file panto reads" : stateProgram(file, text);
      if (program === undefined) continue;
      this.offences.push({ path: at, reason: `git's ${name}: it ${reason}; in ${file}, ${program}` });
      return;
    }
  }

  /** The submodules' git directories under `modules` (names may hold slashes), each checked. */
  #nested(at: string): void {
    const info = lstatOrUndefined(at);
    if (info === undefined) return;
    if (info.isSymbolicLink() && this.#changed(at)) {
      this.#offend(at, "modules");
      return;
    }
    const real = realpathOrUndefined(at);
    if (real === undefined) return;
    const found = findRepositories([real], this.maxFolders);
    for (const directory of found.gitDirectories) this.check(directory, worktreeOf(directory));
    for (const pointer of found.pointers) {
      const target = pointerTarget(pointer);
      if (target !== undefined) this.check(target, path.dirname(pointer));
    }
  }
}

/** A `.git` folder's work tree is the folder holding it; any other git directory is bare. */
function worktreeOf(gitDirectory: string): string | undefined {
  return path.basename(gitDirectory) === ".git" ? path.dirname(gitDirectory) : undefined;
}

/** Where a `.git` file (`gitdir: PATH`, relative to its folder) or `.git` symlink leads. */
function pointerTarget(pointer: string): string | undefined {
  const info = lstatOrUndefined(pointer);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) return realpathOrUndefined(pointer);
  if (!info.isFile() || info.size > MAX_CONFIG_BYTES) return undefined;
  const match = readText(pointer)?.match(/^gitdir:\s*(.+?)\s*$/m);
  return match?.[1] === undefined ? undefined : path.resolve(path.dirname(pointer), match[1]);
}

/** Whether the path, or where its symlinks lead, was created or changed at or after `since`. */
function changedSince(at: string, since: bigint): boolean {
  const info = lstatBig(at);
  if (info === undefined) return false;
  if (info.ctimeNs >= since) return true;
  if (!info.isSymbolicLink()) return false;
  const real = realpathOrUndefined(at);
  const target = real === undefined ? undefined : lstatBig(real);
  return target !== undefined && target.ctimeNs >= since;
}

function putAside(offence: Offence, stamp: string): string {
  const aside = `${offence.path}.sandbox-refused-${stamp}`;
  try {
    renameSync(offence.path, aside);
    return `${offence.path} was created or changed by the command and may not be (${offence.reason}): moved to ${aside}`;
  } catch (error) {
    return `${offence.path} was created or changed by the command and may not be (${offence.reason}); moving it aside failed: ${
      error instanceof Error ? error.message : String(error)
    }`;
  }
}

function lstatBig(at: string) {
  try {
    return lstatSync(at, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function lstatOrUndefined(at: string): Stats | undefined {
  try {
    return lstatSync(at, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

function entryNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(folder, entry.name));
  } catch {
    return [];
  }
}
