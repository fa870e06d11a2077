import { type ChildProcess, type ChildProcessByStdio, spawn } from "node:child_process";
import type { Readable } from "node:stream";
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
  /** Set when the sandbox itself failed to start (the command never ran): what the launcher said. */
  sandboxFailure?: string;
}

/**
 * The program that runs a command: by default `/bin/bash -c COMMAND`; a sandbox wraps it. With
 * `statusFd`, the program (bubblewrap) writes JSON status lines to file descriptor 3, and one with
 * "exit-code" means the command itself ran.
 */
export interface CommandLaunch {
  file: string;
  args: string[];
  statusFd?: boolean;
}

/** `/bin/bash -c command`, unconfined. */
export function bashLaunch(command: string): CommandLaunch {
  return { file: "/bin/bash", args: ["-c", command] };
}

export interface RunProcessOptions {
  cwd: string;
  timeoutMs: number;
  /** The command's whole environment (nothing else is inherited). */
  env: NodeJS.ProcessEnv;
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
 * Runs a command (`launch`, e.g. bashLaunch) in its own process group, so a timeout or abort can
 * kill the whole tree (`kill(-pid)`), not just the shell; under bubblewrap, killing it takes its
 * PID namespace and everything in it along. Rejects only if the program cannot be started.
 */
export function runProcess(launch: CommandLaunch, options: RunProcessOptions): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.file, launch.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe", launch.statusFd === true ? "pipe" : "ignore"],
      detached: true,
    });
    // stdin is "ignore" and stdout, stderr pipes, whatever fd 3 is.
    const piped = child as ChildProcessByStdio<null, Readable, Readable>;
    new CommandRun(piped, options, resolve, reject).start(launch.statusFd === true);
  });
}

/** The bookkeeping of one running command: output, timers, and how it ended. */
class CommandRun {
  private readonly output: HeadTailBuffer;
  private timedOut = false;
  private aborted = false;
  private settled = false;
  private exit: [number | null, NodeJS.Signals | null] = [null, null];
  /** What the launcher wrote on its status descriptor (bubblewrap's JSON lines). */
  private status: string | undefined;
  private readonly timers: {
    timeout?: NodeJS.Timeout;
    drain?: NodeJS.Timeout;
    escalation?: NodeJS.Timeout | undefined;
  } = {};
  private readonly onAbort = () => this.stop("aborted");

  constructor(
    private readonly child: ChildProcessByStdio<null, Readable, Readable>,
    private readonly options: RunProcessOptions,
    private readonly resolve: (result: CommandResult) => void,
    private readonly reject: (error: Error) => void,
  ) {
    this.output = new HeadTailBuffer(options.maxOutputChars);
  }

  start(readStatus: boolean): void {
    for (const stream of [this.child.stdout, this.child.stderr]) {
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => this.output.append(chunk));
    }
    const statusStream = this.child.stdio[3] as Readable | null | undefined;
    if (readStatus && statusStream) {
      this.status = "";
      statusStream.setEncoding("utf8");
      statusStream.on("data", (chunk: string) => {
        this.status += chunk;
      });
    }
    this.child.on("error", (error) => this.fail(error));
    this.child.on("exit", (code, signal) => {
      this.exit = [code, signal];
      this.timers.drain = setTimeout(() => this.finish(false), DRAIN_AFTER_EXIT_MS);
    });
    this.child.on("close", () => this.finish(true));
    this.timers.timeout = setTimeout(() => this.stop("timedOut"), this.options.timeoutMs);
    if (this.options.signal?.aborted) this.stop("aborted");
    else this.options.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  private stop(reason: "timedOut" | "aborted"): void {
    if (this.timedOut || this.aborted || this.settled) return;
    this[reason] = true;
    this.timers.escalation = killTree(this.child);
  }

  /**
   * Settles once. When the pipes closed, every process holding them is gone and the SIGKILL
   * escalation can be dropped; after a drain timeout it stays armed for survivors.
   */
  private finish(pipesClosed: boolean): void {
    if (this.settled) return;
    this.release(pipesClosed);
    const [exitCode, signal] = this.exit;
    const { timedOut, aborted } = this;
    const output = this.output.toString();
    const result: CommandResult = { output, exitCode, signal, timedOut, aborted };
    if (this.status !== undefined && !timedOut && !aborted && !this.status.includes('"exit-code"')) {
      result.sandboxFailure =
        output.trim() || `the sandbox exited with ${exitCode ?? signal} before the command ran`;
    }
    this.resolve(result);
  }

  private fail(error: Error): void {
    if (this.settled) return;
    this.release(true);
    this.reject(error);
  }

  private release(clearEscalation: boolean): void {
    this.settled = true;
    clearTimeout(this.timers.timeout);
    clearTimeout(this.timers.drain);
    if (clearEscalation) clearTimeout(this.timers.escalation);
    this.options.signal?.removeEventListener("abort", this.onAbort);
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    (this.child.stdio[3] as Readable | null | undefined)?.destroy();
  }
}

/** SIGTERM to the process group now, SIGKILL after a grace period; returns the SIGKILL timer. */
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
