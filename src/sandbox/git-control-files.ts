import path from "node:path";
import { GIT_STATE_FOLDERS } from "./git-state-folders.js";

/**
 * The files inside a git directory that can make the user's git run a program, with why. A model
 * that writes one of them gets its command run outside the sandbox by the user's next `git status`
 * (core.fsmonitor), commit (hooks) or diff (drivers). Everything else in a git directory stays
 * writable, so commits and branches work inside the sandbox:
 * - `objects/info/alternates` only names where more objects are read from: data, never a program;
 * - `info/exclude` and `info/sparse-checkout` select paths, `HEAD`, refs, logs and the index hold
 *   data only (the index's fsmonitor extension is a token, not a command);
 * - `worktrees/<id>/gitdir` is the path back to a linked worktree, read by `git worktree prune`
 *   and `list` only; it is kept read-only at the top of a writable folder (as it is there) but a
 *   new worktree may write it.
 */
export const GIT_CONTROL_FILES: readonly { name: string; reason: string }[] = [
  {
    name: "config",
    reason:
      "names programs git runs: core.fsmonitor, core.hooksPath, core.sshCommand, core.pager, core.editor, aliases, diff/merge drivers, filter.*, credential.helper, include.path",
  },
  { name: "config.worktree", reason: "is a worktree's own config, with the same settings as config" },
  {
    name: "commondir",
    reason: "sends git to another git directory, whose config and hooks then apply",
  },
  { name: "hooks", reason: "holds programs git runs on commit, checkout, merge, push and more" },
  {
    name: "modules",
    reason: "holds the submodules' git directories, each with its own config and hooks",
  },
  {
    name: "info/attributes",
    reason: "selects the filter and diff drivers (configured commands) git runs on files",
  },
];

/** In a linked worktree's control folder (`worktrees/<id>/`), the files git reads as the worktree's. */
export const WORKTREE_CONTROL_FILES: readonly string[] = ["commondir", "gitdir", "config.worktree"];

/**
 * Why `absolute` (a host path) is a git control file at any depth, judged by its name alone: a
 * `.git` entry itself (a directory there is fine, a file there is a pointer naming a git
 * directory), or under a `.git` directory one of GIT_CONTROL_FILES, a worktree's control files, or
 * an operation's state (GIT_STATE_FOLDERS, which the tools have no need to write). Undefined for
 * any other path. The file tools refuse writing such a path in a writable folder; what commands do
 * is checked after them (putAsideGitChanges).
 */
export function gitControlReason(absolute: string): string | undefined {
  const parts = absolute.split(path.sep);
  for (let index = 0; index < parts.length; index += 1) {
    if (parts[index] !== ".git") continue;
    const inside = parts.slice(index + 1);
    const reason =
      inside.length === 0 ? "a .git entry, which git follows to a git directory" : reasonInside(inside);
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function reasonInside(inside: readonly string[]): string | undefined {
  const [first, second, third] = inside;
  const joined = inside.join("/");
  for (const entry of [...GIT_CONTROL_FILES, ...GIT_STATE_FOLDERS]) {
    if (joined === entry.name || joined.startsWith(`${entry.name}/`))
      return `git's ${entry.name}: it ${entry.reason}`;
  }
  if (first === "worktrees" && second !== undefined && third !== undefined && inside.length === 3) {
    if (WORKTREE_CONTROL_FILES.includes(third))
      return `a linked worktree's ${third}, read as that worktree's`;
  }
  return undefined;
}
