import { spawn } from "node:child_process";
import { optional } from "../core/index.js";

/** How one hook command ended. */
export interface HookProcessResult {
  /** null when the command was killed (timeout) or could not be started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  durationMs: number;
  /** Why bash could not be started, when it could not. */
  spawnError?: string;
}

export interface HookProcessOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed. */
  input: string;
  timeoutMs: number;
}

/** Characters kept of each of stdout and stderr; a hook's verdict fits in far less. */
const MAX_STREAM_CHARS = 64_000;
/** How long to keep reading after bash exits: a background child may hold the pipes open for ever. */
const DRAIN_AFTER_EXIT_MS = 200;

/**
 * Runs a hook command with /bin/bash -c in its own process group, the event on stdin. A timeout
 * kills the whole group (SIGKILL: a hook has no work worth saving), so a hanging hook never stalls
 * the session. Never rejects: a command that cannot start comes back with `spawnError`.
 */
export function runHookCommand(command: string, options: HookProcessOptions): Promise<HookProcessResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    // --norc: stdin is a socket pair, which bash takes for a remote shell and would read ~/.bashrc.
    const child = spawn("/bin/bash", ["--norc", "-c", command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const output = { stdout: "", stderr: "" };
    let exitCode: number | null = null;
    let timedOut = false;
    let settled = false;
    let drain: NodeJS.Timeout | undefined;
    const finish = (spawnError?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode: timedOut ? null : exitCode,
        ...output,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        ...optional("spawnError", spawnError),
      });
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      finish();
    }, options.timeoutMs);
    for (const name of ["stdout", "stderr"] as const) {
      child[name].setEncoding("utf8");
      child[name].on("data", (chunk: string) => {
        if (output[name].length < MAX_STREAM_CHARS)
          output[name] = (output[name] + chunk).slice(0, MAX_STREAM_CHARS);
      });
    }
    // A hook that never reads its stdin closes the pipe early: EPIPE is no failure of the hook.
    child.stdin.on("error", () => {});
    child.stdin.end(options.input);
    child.on("error", (error) => finish(error.message));
    child.on("exit", (code) => {
      exitCode = code;
      drain = setTimeout(() => finish(), DRAIN_AFTER_EXIT_MS);
    });
    child.on("close", () => finish());
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // ESRCH: the group is already gone.
  }
}
