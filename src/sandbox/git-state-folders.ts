/** The merge strategies built into git: any other name makes git run `git-merge-NAME`, a program. */
const BUILT_IN_STRATEGIES: ReadonlySet<string> = new Set([
  "ort",
  "recursive",
  "resolve",
  "octopus",
  "ours",
  "subtree",
]);

/**
 * The folders of a git directory that hold an operation in progress, which git resumes from them
 * at `--continue`, outside the sandbox when the user types it. Unlike hooks they are what a rebase
 * or cherry-pick that stops on a conflict leaves for the next command, so they stay writable and
 * only what in them names a program is refused (see stateProgram).
 */
export const GIT_STATE_FOLDERS: readonly { name: string; reason: string }[] = [
  {
    name: "rebase-merge",
    reason:
      "holds a rebase in progress: git rebase --continue runs its todo's exec lines and its merge strategy (git-merge-NAME)",
  },
  {
    name: "rebase-apply",
    reason: "holds a git am or rebase --apply in progress: git rebase --continue reads its merge strategy",
  },
  {
    name: "sequencer",
    reason:
      "holds a cherry-pick or revert in progress: git cherry-pick --continue runs its todo's exec lines and the strategy in its opts",
  },
];

/** The files in a state folder that can name a program, each checked after a command. */
export const GIT_STATE_FILES: readonly string[] = ["git-rebase-todo", "todo", "strategy", "opts"];

const EXEC_LINE = /^[ \t]*(?:exec|x)(?:[ \t].*)?$/m;
const OPTS_STRATEGY = /^[ \t]*strategy[ \t]*=(.*)$/gim;

/**
 * What in a state file (`file`, one of GIT_STATE_FILES) makes git run a program, or undefined:
 * a todo's `exec` (or `x`) line, a strategy other than git's own. Read strictly: a strategy git
 * would read differently (quoted, continued) is not one of git's own names here either.
 */
export function stateProgram(file: string, text: string): string | undefined {
  if (file === "git-rebase-todo" || file === "todo") {
    const line = EXEC_LINE.exec(text)?.[0];
    return line === undefined ? undefined : `its line "${line.trim().slice(0, 80)}" runs a command`;
  }
  const strategies =
    file === "strategy" ? [text] : [...text.matchAll(OPTS_STRATEGY)].map((match) => match[1] ?? "");
  const other = strategies.map((value) => value.trim()).find((value) => !BUILT_IN_STRATEGIES.has(value));
  return other === undefined
    ? undefined
    : `the merge strategy "${other}" is not git's own: git runs git-merge-${other}`;
}
