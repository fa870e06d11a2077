import { spawn } from "node:child_process";
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import type { Readable } from "node:stream";
import type { BackgroundTaskInfo, RunningTask, TaskEnding, TaskLaunch } from "./background-tasks.js";

/** Grace between SIGTERM and SIGKILL when stopping a task. */
const KILL_GRACE_MS = 2000;

/**
 * The supervisor each task runs under, in its own process group: it starts the command (`$@`) in
 * that group with stdin closed, and a watcher that reads its own stdin, a pipe whose other end
 * only panto holds. When panto dies, however it dies (SIGKILL included), the kernel closes that
 * end, the watcher reads EOF and kills the whole group: no task outlives panto. Under bubblewrap,
 * the command is bwrap, whose sandbox dies with it (--die-with-parent). The supervisor exits with
 * the command's status; panto then kills what is left of the group.
 */
const SUPERVISOR = [
  // A background job's stdin would be /dev/null: keep the pipe as fd 4 for the watcher alone.
  "exec 4<&0 0</dev/null",
  '"$@" 4<&- &',
  "child=$!",
  "{ while read -r _; do :; done; kill -KILL 0; } <&4 4<&- 3>&- 1>&- 2>&- &",
  "exec 4<&-",
  'wait "$child"',
  "exit $?",
].join("\n");

/** The next free id in `folder` (bg1, bg2, ...): a resumed session's earlier logs are kept. */
function nextId(folder: string): string {
  const used = readdirSync(folder).flatMap((name) => {
    const match = /^bg(\d+)\.log$/.exec(name);
    return match === null ? [] : [Number(match[1])];
  });
  return `bg${Math.max(0, ...used) + 1}`;
}

/**
 * Starts one background task: its output goes straight to `<folder>/<id>.log` (the command writes
 * the file itself, so nothing is lost even if panto crashes), its process group is tied to panto
 * (SUPERVISOR), and `onEnded` is called once with its final info.
 */
export async function spawnTask(
  launch: TaskLaunch,
  folder: string,
  onEnded: (info: BackgroundTaskInfo) => void,
): Promise<RunningTask> {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const id = nextId(folder);
  const logPath = join(folder, `${id}.log`);
  const log = openSync(logPath, "wx", 0o600);
  const statusPipe = launch.launch.statusFd === true;
  let child: ReturnType<typeof spawn>;
  try {
    child = spawn("/bin/bash", ["-c", SUPERVISOR, "panto-task", launch.launch.file, ...launch.launch.args], {
      cwd: launch.cwd,
      env: launch.env,
      stdio: ["pipe", log, log, statusPipe ? "pipe" : "ignore"],
      detached: true,
    });
  } finally {
    closeSync(log);
  }
  const info: BackgroundTaskInfo = {
    id,
    command: launch.command,
    ...(launch.callId === undefined ? {} : { callId: launch.callId }),
    startedAt: Date.now(),
    logPath,
    outputBytes: 0,
    readBytes: 0,
  };
  return new SupervisedTask(child, info, launch, statusPipe, onEnded);
}

/** One running task: its supervisor process, and how it ended. */
class SupervisedTask implements RunningTask {
  readonly ended: Promise<void>;
  #stoppedBy: "kill_task" | "user" | "session-end" | undefined;
  #status = "";
  #escalation: NodeJS.Timeout | undefined;

  constructor(
    private readonly child: ReturnType<typeof spawn>,
    readonly info: BackgroundTaskInfo,
    private readonly launch: TaskLaunch,
    statusPipe: boolean,
    private readonly onEnded: (info: BackgroundTaskInfo) => void,
  ) {
    const status = child.stdio[3] as Readable | null | undefined;
    if (statusPipe && status) {
      status.setEncoding("utf8");
      status.on("data", (chunk: string) => {
        this.#status += chunk;
      });
    }
    // Neither the task nor its watch pipe keeps panto running; the run's close stops the task.
    child.unref();
    (child.stdin as Socket | null)?.unref();
    (status as Socket | null | undefined)?.unref();
    this.ended = new Promise((resolve) => {
      child.on("error", (error) => this.#end({ kind: "sandbox-failed", message: error.message }, resolve));
      child.on("exit", (code, signal) => {
        // bubblewrap's last status line may still be in the pipe when the supervisor exits.
        void drained(status).then(() => this.#end(this.#ending(code, signal), resolve));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  async stop(by: "kill_task" | "user" | "session-end"): Promise<void> {
    if (this.info.ending === undefined && this.#stoppedBy === undefined) {
      this.#stoppedBy = by;
      signalGroup(this.child.pid, "SIGTERM");
      this.#escalation = setTimeout(() => signalGroup(this.child.pid, "SIGKILL"), KILL_GRACE_MS);
    }
    await this.ended;
  }

  #ending(code: number | null, signal: NodeJS.Signals | null): TaskEnding {
    if (this.#stoppedBy !== undefined) return { kind: "killed", by: this.#stoppedBy };
    if (this.launch.launch.statusFd === true && !this.#status.includes('"exit-code"'))
      return {
        kind: "sandbox-failed",
        message: `the sandbox exited with ${code ?? signal} before the command ran`,
      };
    if (code === null) return { kind: "killed", by: "signal", ...(signal === null ? {} : { signal }) };
    return { kind: "exited", code };
  }

  #end(ending: TaskEnding, resolve: () => void): void {
    if (this.info.ending !== undefined) return;
    clearTimeout(this.#escalation);
    // What the command left behind in its group (a server it started with `&`) goes with it.
    signalGroup(this.child.pid, "SIGKILL");
    this.child.stdin?.destroy();
    (this.child.stdio[3] as Readable | null | undefined)?.destroy();
    this.info.ending = ending;
    this.info.endedAt = Date.now();
    this.info.outputBytes = logSize(this.info.logPath, this.info.outputBytes);
    if (this.launch.finish !== undefined) this.info.after = this.launch.finish();
    this.onEnded(this.info);
    // SIGKILL takes a moment, and bubblewrap's sandbox dies with bubblewrap a moment later: wait for
    // the group and the sandbox's first process (which takes its PID namespace along), so a run's
    // close returns with nothing of the task left.
    const sandboxPid = /"child-pid"\s*:\s*(\d+)/.exec(this.#status)?.[1];
    const pgid = this.child.pid === undefined ? undefined : -this.child.pid;
    void Promise.all([gone(pgid), gone(sandboxPid === undefined ? undefined : Number(sandboxPid))]).then(() =>
      resolve(),
    );
  }
}

/**
 * Resolves once process `pid` (a negative one: every process of that group) is gone, or after a
 * second: it was sent SIGKILL, so it is going anyway.
 */
async function gone(pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  for (let waited = 0; waited < 1000; waited += 10) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves once `stream` has ended, or after a short wait for one a straggler still holds. */
function drained(stream: Readable | null | undefined): Promise<void> {
  if (stream === null || stream === undefined || stream.readableEnded || stream.destroyed)
    return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 250);
    stream.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function logSize(path: string, fallback: number): number {
  try {
    const fd = openSync(path, "r");
    try {
      return fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
  } catch {
    return fallback;
  }
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}
