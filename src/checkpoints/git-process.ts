import { spawn } from "node:child_process";
import { CheckpointError } from "./checkpoint-error.js";

/** One git run: its arguments, environment and what to feed it. */
export interface GitRun {
  /** The git command and its arguments ("ls-files", "-z", ...). */
  args: readonly string[];
  /** Settings for this run ("name=value"), after the safe ones every run gets. */
  config?: readonly string[];
  /** Variables added to the cleaned environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE...). */
  env?: Record<string, string>;
  cwd: string;
  input?: Buffer | string;
  /** Kills git and fails when its output grows past this many bytes (a workspace far too large). */
  maxOutputBytes?: number;
  /** Exit statuses that are answers, not failures (e.g. 1 from `config --get` when unset). */
  okStatuses?: readonly number[];
  signal?: AbortSignal;
}

export interface GitOutput {
  stdout: Buffer;
  status: number;
}

/**
 * Settings every git run of panto's gets, whatever the user's or project's config says: no hooks,
 * no file-system monitor, no automatic gc or maintenance, and no content filters or line-ending
 * conversion (a checkpoint stores bytes exactly as they are on disk).
 */
const SAFE_CONFIG = [
  "core.fsmonitor=false",
  "core.hooksPath=/dev/null",
  "gc.auto=0",
  "maintenance.auto=false",
  "core.autocrlf=false",
  "core.safecrlf=false",
  "core.quotePath=false",
  "advice.addEmbeddedRepo=false",
];

/** The environment git runs with: the user's, minus every GIT_* variable that could redirect it. */
function gitEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith("GIT_")) env[name] = value;
  }
  return { ...env, GIT_TERMINAL_PROMPT: "0", GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C", ...extra };
}

/** The git command line: the safe settings first, then the run's own, then its arguments. */
export function gitArguments(args: readonly string[], config: readonly string[] = []): string[] {
  return [...[...SAFE_CONFIG, ...config].flatMap((setting) => ["-c", setting]), ...args];
}

/**
 * Runs git and collects its output. Fails with a CheckpointError naming the command and git's own
 * message when it cannot start (git missing), exits with another status, or says too much.
 */
export function runGit(run: GitRun): Promise<GitOutput> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", gitArguments(run.args, run.config), {
      cwd: run.cwd,
      env: gitEnvironment(run.env ?? {}),
      stdio: ["pipe", "pipe", "pipe"],
      ...(run.signal === undefined ? {} : { signal: run.signal }),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let bytes = 0;
    let tooLarge = false;
    const command = `git ${run.args[0] ?? ""}`;
    child.stdout.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (run.maxOutputBytes !== undefined && bytes > run.maxOutputBytes) {
        tooLarge = true;
        child.kill("SIGKILL");
      } else stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error: NodeJS.ErrnoException) => {
      const why =
        error.code === "ENOENT" ? "git was not found on PATH" : `${command} failed: ${error.message}`;
      reject(new CheckpointError(why, { cause: error, gitMissing: error.code === "ENOENT" }));
    });
    child.stdin.on("error", () => undefined);
    child.on("close", (status) => {
      if (tooLarge) {
        reject(new CheckpointError(`${command} listed more than ${run.maxOutputBytes} bytes of paths`));
        return;
      }
      const code = status ?? -1;
      if (code === 0 || run.okStatuses?.includes(code) === true) {
        resolve({ stdout: Buffer.concat(stdout), status: code });
        return;
      }
      const message = Buffer.concat(stderr).toString("utf8").trim().split("\n").slice(0, 3).join(" ");
      reject(new CheckpointError(`${command} failed (exit ${code}): ${message}`));
    });
    child.stdin.end(run.input ?? "");
  });
}

/** Splits NUL-terminated output into its records. */
export function nulRecords(output: Buffer): string[] {
  const text = output.toString("utf8");
  if (text === "") return [];
  const records = text.split("\0");
  if (records.at(-1) === "") records.pop();
  return records;
}
