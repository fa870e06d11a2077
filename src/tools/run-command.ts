import { type ChildProcess, spawn } from "node:child_process";
import { HeadTailBuffer } from "./head-tail-buffer.js";

/** How a command ended. */
export interface CommandResult {
  /** stdout and stderr interleaved in arrival order, capped. */
  output: string;
  /** null when the command was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

export interface RunCommandOptions {
  cwd: string;
  timeoutMs: number;
  maxOutputChars: number;
  signal?: AbortSignal;
}

/** Grace between SIGTERM and SIGKILL when stopping a command. */
const KILL_GRACE_MS = 2000;
/**
 * How long to keep reading after the shell exits. A background child (`server &`) inherits the
 * pipes and would otherwise keep the command "running" for as long as it lives.
 */
const DRAIN_AFTER_EXIT_MS = 250;

/**
 * Runs `command` with /bin/bash -c in its own process group, so a timeout or abort can kill the
 * whole tree (`kill(-pid)`), not just the shell.
 */
export function runCommand(command: string, options: RunCommandOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/bash", ["-c", command], {
      cwd: options.cwd,
      env: process.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    const output = new HeadTailBuffer(options.maxOutputChars);
    const state: RunState = { timedOut: false, aborted: false };
    for (const stream of [child.stdout, child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => output.append(chunk));
    }
    const stop = (reason: "timedOut" | "aborted") => {
      if (state.timedOut || state.aborted) return;
      state[reason] = true;
      state.escalation = killTree(child);
    };
    const timer = setTimeout(() => stop("timedOut"), options.timeoutMs);
    const onAbort = () => stop("aborted");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let drainTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (pipesClosed: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      if (pipesClosed) clearTimeout(state.escalation);
      options.signal?.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      const [exitCode, signal] = state.exit ?? [null, null];
      resolve({
        output: output.toString(),
        exitCode,
        signal,
        timedOut: state.timedOut,
        aborted: state.aborted,
      });
    };
    child.on("error", (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("exit", (code, signal) => {
      state.exit = [code, signal];
      drainTimer = setTimeout(() => finish(false), DRAIN_AFTER_EXIT_MS);
    });
    child.on("close", () => finish(true));
    if (options.signal?.aborted) onAbort();
  });
}

interface RunState {
  timedOut: boolean;
  aborted: boolean;
  exit?: [number | null, NodeJS.Signals | null];
  escalation?: NodeJS.Timeout | undefined;
}

/**
 * SIGTERM to the process group, then SIGKILL after a grace period. Returns the escalation timer,
 * which is cleared once the pipes close; if the shell exits first but a child ignoring SIGTERM
 * survives, the timer still fires.
 */
function killTree(child: ChildProcess): NodeJS.Timeout | undefined {
  const pid = child.pid;
  if (pid === undefined) return undefined;
  signalGroup(pid, "SIGTERM");
  return setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
