/** How one run of a `bash` command ended, read back from its tool result. */
export interface BashRunOutcome {
  /** The exit status; null when the command was killed, timed out or interrupted. */
  exitCode: number | null;
  /** "exit 0", "exit 1", "timed out", "interrupted", "killed by SIGTERM". */
  ending: string;
  /** The output before the closing line. */
  output: string;
}

const EXIT = /\n\nExit code: (\d+)$/;
const TIMED_OUT = /\n\nCommand timed out after \d+ ms and was killed$/;
const ABORTED = /\n\nCommand aborted and killed$/;
const KILLED = /\n\nCommand killed by (\S+)$/;

/**
 * Reads the closing line the bash tool writes after a command's output (`formatCommandResult` in
 * src/tools/bash-tool.ts): `Exit code: N`, or how it was stopped. Undefined for a result that is not
 * a run (a denied or blocked call, a stand-in for a missing result): it says nothing of the command.
 */
export function bashRunOutcome(text: string): BashRunOutcome | undefined {
  const exit = EXIT.exec(text);
  if (exit !== null) return at(text, exit.index, Number(exit[1]), `exit ${exit[1]}`);
  const timedOut = TIMED_OUT.exec(text);
  if (timedOut !== null) return at(text, timedOut.index, null, "timed out");
  const aborted = ABORTED.exec(text);
  if (aborted !== null) return at(text, aborted.index, null, "interrupted");
  const killed = KILLED.exec(text);
  if (killed !== null) return at(text, killed.index, null, `killed by ${killed[1]}`);
  return undefined;
}

function at(text: string, index: number, exitCode: number | null, ending: string): BashRunOutcome {
  return { exitCode, ending, output: text.slice(0, index) };
}
