import { splitShellCommand } from "../permissions/split-shell-command.js";

/** Programs that only read, whatever their arguments (besides the ones `refusedArgument` names). */
const READING_PROGRAMS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "grep",
  "rg",
  "find",
  "stat",
  "file",
  "tree",
  "diff",
  "nl",
  "which",
  "echo",
]);

/** git's subcommands that only read (with `--output` refused: `git diff --output=FILE` writes). */
const READING_GIT = new Set(["status", "log", "diff", "show", "blame", "rev-parse", "ls-files", "grep"]);

/**
 * Arguments that make a reading program write or start another: find's actions, rg's
 * preprocessor, git's output file.
 */
const REFUSED_ARGUMENTS = [
  /^-(exec|execdir|ok|okdir|delete|fprint|fprint0|fprintf|fls)$/,
  /^--pre(=|$)/,
  /^--output(=|$)/,
];

/**
 * Whether a command line only reads, for plan mode without a sandbox to run it read-only: each of
 * its simple commands (split as permission rules split them) is one of a short list of reading
 * programs (`git status`, `git log`, `git diff`, `git show`, `ls`, `cat`, `grep`, `rg`, `find`
 * without `-exec` or `-delete`, ...). Conservative on purpose: no redirection, substitution,
 * variable or glob expansion of a file name to write (`>`, `` ` ``, `$`), and no word it cannot
 * read plainly, so a false "reads only" is not possible through the shell's syntax.
 */
export function isReadOnlyCommand(line: string): boolean {
  if (/[>`$]/.test(line) || line.trim() === "") return false;
  const split = splitShellCommand(line);
  if (!split.complete || split.parts.length === 0) return false;
  return split.parts.every((part) => readsOnly(part.trim().split(/\s+/)));
}

function readsOnly(words: readonly string[]): boolean {
  const [program, ...rest] = words;
  if (program === undefined) return false;
  if (
    rest.some((word) => REFUSED_ARGUMENTS.some((pattern) => pattern.test(word.replace(/^['"]|['"]$/g, ""))))
  )
    return false;
  if (program === "git") return rest[0] !== undefined && READING_GIT.has(rest[0]);
  return READING_PROGRAMS.has(program);
}
