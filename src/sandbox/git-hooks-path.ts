import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The user's own git config files, as the user's git reads them (system, then global), from the
 * environment panto runs in: `$GIT_CONFIG_SYSTEM` or /etc/gitconfig unless `$GIT_CONFIG_NOSYSTEM`,
 * `$GIT_CONFIG_GLOBAL` or both `~/.gitconfig` and `$XDG_CONFIG_HOME/git/config`.
 */
export function userGitConfigs(env: NodeJS.ProcessEnv, home: string): string[] {
  const files: string[] = [];
  if (env.GIT_CONFIG_NOSYSTEM === undefined || env.GIT_CONFIG_NOSYSTEM === "")
    files.push(env.GIT_CONFIG_SYSTEM ?? "/etc/gitconfig");
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    files.push(env.GIT_CONFIG_GLOBAL);
  } else {
    files.push(path.join(env.XDG_CONFIG_HOME ?? path.join(home, ".config"), "git", "config"));
    files.push(path.join(home, ".gitconfig"));
  }
  return files;
}

/** Where the git configs of one repository are read from, and how its relative paths resolve. */
export interface HooksPathQuery {
  /** The repository's git directory (its config and config.worktree are read). */
  gitDirectory: string;
  /** Its work tree, where a relative hooksPath starts; undefined for a bare repository (the git directory then). */
  worktree: string | undefined;
  /** The user's config files (userGitConfigs). */
  userConfigs: readonly string[];
  home: string;
}

/** The hooks git runs (githooks(5)): in a folder core.hooksPath names, only these are programs to git. */
export const GIT_HOOK_NAMES: ReadonlySet<string> = new Set([
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
  "post-index-change",
]);

/** Includes followed at most this deep (git's own limit is 10). */
const MAX_INCLUDE_DEPTH = 10;
const MAX_CONFIG_BYTES = 256 * 1024;

/**
 * Every folder a git config in effect for the repository names as its hooks folder
 * (`core.hooksPath`), resolved: git runs the programs there instead of `hooks/`, so one inside a
 * writable folder (husky's `.husky`, a global `.githooks` relative to each work tree) is held as
 * `hooks/` is. Every value found counts, not only the one git would pick last, and includes are
 * followed whatever their condition: unsure means protected.
 */
export function hooksPathsFor(query: HooksPathQuery): string[] {
  const values: string[] = [];
  const files = [
    ...query.userConfigs,
    path.join(query.gitDirectory, "config"),
    path.join(query.gitDirectory, "config.worktree"),
  ];
  for (const file of files) collectHooksPaths(file, query.home, 0, values);
  const base = query.worktree ?? query.gitDirectory;
  return [...new Set(values.map((value) => resolveValue(value, query.home, base)))];
}

/** The relative hooksPath values of the user's own configs: they name a folder in every work tree. */
export function relativeUserHooksPaths(userConfigs: readonly string[], home: string): string[] {
  const values: string[] = [];
  for (const file of userConfigs) collectHooksPaths(file, home, 0, values);
  return [...new Set(values.filter((value) => !path.isAbsolute(value) && !value.startsWith("~")))]
    .map((value) => path.normalize(value))
    .filter((value) => value !== "." && !value.startsWith(".."));
}

function collectHooksPaths(file: string, home: string, depth: number, values: string[]): void {
  const text = readSmall(file);
  if (text === undefined) return;
  let section = "";
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const header = /^\[\s*([^\]\s"]+)\s*(?:"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    let body = line;
    if (header !== undefined && header !== null) {
      section = (header[1] ?? "").toLowerCase();
      body = header[2] ?? "";
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(body);
    if (key?.[1] === undefined) continue;
    const name = key[1].toLowerCase();
    const value = configValue(key[2] ?? "");
    if (value === "") continue;
    if (section === "core" && name === "hookspath") values.push(value);
    if ((section === "include" || section === "includeif") && name === "path" && depth < MAX_INCLUDE_DEPTH) {
      collectHooksPaths(resolveValue(value, home, path.dirname(file)), home, depth + 1, values);
    }
  }
}

/** A value as git reads it in the usual forms: quotes removed, a comment after it dropped. */
function configValue(raw: string): string {
  let value = "";
  let quoted = false;
  for (const character of raw) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && (character === "#" || character === ";")) break;
    else value += character;
  }
  return value.trim();
}

function resolveValue(value: string, home: string, base: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return path.join(home, value.slice(2));
  return path.resolve(base, value);
}

/**
 * A regular file's text, up to MAX_CONFIG_BYTES: opened without blocking and checked through its
 * descriptor, so a pipe or device a command left in a config's place cannot hold panto up.
 */
function readSmall(file: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const status = fstatSync(fd);
    if (!status.isFile() || status.size > MAX_CONFIG_BYTES) return undefined;
    return readFileSync(fd, "utf8");
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Why writing `absolute` plants a hook: it is named as one (GIT_HOOK_NAMES) in a folder that a git
 * config in effect for the nearest repository holding it names as its hooks folder. Looked up from
 * the path's folder upwards to `top` (the writable folder), a few lstat calls.
 */
export function hooksFolderReason(
  absolute: string,
  top: string,
  userGit: { userConfigs: readonly string[]; home: string },
): string | undefined {
  if (!GIT_HOOK_NAMES.has(path.basename(absolute))) return undefined;
  for (let folder = path.dirname(absolute); ; folder = path.dirname(folder)) {
    const gitDirectory = gitDirectoryOf(path.join(folder, ".git"));
    if (gitDirectory !== undefined) {
      const query = { gitDirectory, worktree: folder, ...userGit };
      const named = hooksPathsFor(query).find((hooks) => path.dirname(absolute) === hooks);
      return named === undefined
        ? undefined
        : `a hook in ${named}, the hooks folder core.hooksPath names for the repository at ${folder}`;
    }
    if (folder === top || folder === path.dirname(folder)) return undefined;
  }
}

/** The git directory a `.git` entry is or points to (`gitdir: PATH`), if any. */
function gitDirectoryOf(dotGit: string): string | undefined {
  let status: ReturnType<typeof lstatSync>;
  try {
    status = lstatSync(dotGit, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (status === undefined) return undefined;
  if (!status.isFile()) return dotGit;
  const match = readSmall(dotGit)?.match(/^gitdir:\s*(.+?)\s*$/m);
  return match?.[1] === undefined ? dotGit : path.resolve(path.dirname(dotGit), match[1]);
}
