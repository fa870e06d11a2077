import type { AfterCommand } from "../sandbox/index.js";
import type { CommandLaunch } from "./run-process.js";
import { ToolError } from "./tool-error.js";

/** How a background task ended. */
export type TaskEnding =
  | { kind: "exited"; code: number }
  | { kind: "killed"; by: "kill_task" | "user" | "session-end" | "signal"; signal?: string }
  | { kind: "sandbox-failed"; message: string };

/** What `/tasks`, the status line and the model see of one background task. */
export interface BackgroundTaskInfo {
  id: string;
  command: string;
  /** The tool call that started it (ACP keeps that call open until the task ends). */
  callId?: string;
  startedAt: number;
  endedAt?: number;
  ending?: TaskEnding;
  /** Where its output (stdout and stderr, interleaved) is written whole. */
  logPath: string;
  /** Bytes of output written to the log so far. */
  outputBytes: number;
  /** Bytes of the log bash_output has handed the model so far. */
  readBytes: number;
  /** The sandbox's check after it ended: protected paths put back, notes. */
  after?: AfterCommand;
}

/** What a task reports as it starts and ends. */
export type BackgroundTaskEvent =
  | { type: "background-task-started"; task: BackgroundTaskInfo }
  | { type: "background-task-exited"; task: BackgroundTaskInfo };

/** One started command, as the registry drives it (see background-task.ts). */
export interface RunningTask {
  readonly info: BackgroundTaskInfo;
  /** SIGTERM to its process group, SIGKILL after a grace; resolves once it has ended. */
  stop(by: "kill_task" | "user" | "session-end"): Promise<void>;
  /** Resolves once it has ended. */
  readonly ended: Promise<void>;
}

/** How to start one task: the launch (a sandbox's, or plain bash) and where and how it runs. */
export interface TaskLaunch {
  command: string;
  launch: CommandLaunch;
  cwd: string;
  env: NodeJS.ProcessEnv;
  callId?: string;
  /** The sandbox's check once the task's processes are gone. */
  finish?: () => AfterCommand;
}

/** At most this many tasks run at once per run, so a looping model cannot fork without end. */
export const MAX_RUNNING_TASKS = 16;

/**
 * The background commands of one run (`bash` with `run_in_background`): started, read and stopped
 * by the model's tools, listed by `/tasks`, all stopped when the run closes. Their output goes to
 * `<folder>/<id>.log` (the session's `<name>.tasks/` folder: `work.jsonl` keeps `work.tasks/`), and each exit is told to the model
 * once, at its next request (takeExitNotes). Spawning code loads with the first task.
 */
export class BackgroundTasks {
  readonly #tasks = new Map<string, RunningTask>();
  readonly #unreported = new Set<string>();
  readonly #listeners = new Set<(event: BackgroundTaskEvent) => void>();
  readonly #folder: () => string;
  #closed = false;

  /** `folder`: where logs go now (it follows the session as /clear replaces it). */
  constructor(folder: () => string) {
    this.#folder = folder;
  }

  /** Calls `listener` with every later start and exit; returns the function that stops it. */
  subscribe(listener: (event: BackgroundTaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  async start(launch: TaskLaunch): Promise<BackgroundTaskInfo> {
    if (this.#closed) throw new ToolError("background tasks are closed: the session is ending");
    const running = this.list().filter((task) => task.ending === undefined).length;
    if (running >= MAX_RUNNING_TASKS)
      throw new ToolError(
        `${running} background tasks are running, the most one session may have: stop one with kill_task first`,
      );
    // Loaded with the first task: a run that starts none never loads node:child_process for it.
    const { spawnTask } = await import("./background-task.js");
    const task = await spawnTask(launch, this.#folder(), (info) => this.#ended(info));
    this.#tasks.set(task.info.id, task);
    this.#emit({ type: "background-task-started", task: task.info });
    return task.info;
  }

  /** Every task of the run, oldest first. */
  list(): BackgroundTaskInfo[] {
    return [...this.#tasks.values()].map((task) => task.info);
  }

  /** How many are running now. */
  runningCount(): number {
    return this.list().filter((task) => task.ending === undefined).length;
  }

  /** The task `id`, or a ToolError naming the ids there are. */
  get(id: string): RunningTask {
    const task = this.#tasks.get(id);
    if (task !== undefined) return task;
    const ids = [...this.#tasks.keys()];
    throw new ToolError(
      `no background task ${JSON.stringify(id)} in this session${ids.length === 0 ? " (none was started)" : `: the tasks are ${ids.join(", ")}`}`,
    );
  }

  /** Stops `id` (its whole process tree) and waits until it has ended; the model knows, so no note follows. */
  async kill(id: string): Promise<BackgroundTaskInfo> {
    const task = this.get(id);
    await task.stop("kill_task");
    this.#unreported.delete(id);
    return task.info;
  }

  /** Stops `id` at the user's word (/tasks kill): unlike kill_task, the model is told at its next request. */
  async stopForUser(id: string): Promise<void> {
    await this.get(id).stop("user");
  }

  /** Marks `id`'s exit as told to the model (bash_output showed it). */
  reported(id: string): void {
    this.#unreported.delete(id);
  }

  /**
   * One line per task that ended since the last call and whose end the model was not shown yet:
   * what the next request tells it (recorded in the session with that request's message).
   */
  takeExitNotes(): string[] {
    const notes = [...this.#unreported].flatMap((id) => {
      const info = this.#tasks.get(id)?.info;
      return info === undefined ? [] : [exitNote(info)];
    });
    this.#unreported.clear();
    return notes;
  }

  /** Stops every task and waits for them: the session is ending. No task outlives it. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#tasks.values()].map((task) => task.stop("session-end")));
  }

  #ended(info: BackgroundTaskInfo): void {
    const told =
      info.ending?.kind === "killed" && (info.ending.by === "kill_task" || info.ending.by === "session-end");
    if (!told) this.#unreported.add(info.id);
    this.#emit({ type: "background-task-exited", task: info });
  }

  #emit(event: BackgroundTaskEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}

/** How a task ended, in words: "exit code 0", "killed by kill_task", ... */
export function describeEnding(ending: TaskEnding): string {
  switch (ending.kind) {
    case "exited":
      return `exit code ${ending.code}`;
    case "killed":
      if (ending.by === "signal") return `killed by ${ending.signal ?? "a signal"}`;
      return ending.by === "user" ? "stopped by the user" : `killed by ${ending.by}`;
    case "sandbox-failed":
      return `the sandbox could not start: ${ending.message}`;
  }
}

/** The one line telling the model a task ended: id, how, output size, where its log is. */
export function exitNote(info: BackgroundTaskInfo): string {
  const ending = info.ending === undefined ? "running" : describeEnding(info.ending);
  return (
    `[panto] Background task ${info.id} ended: ${ending}, ${info.outputBytes} bytes of output ` +
    `(bash_output {"id": "${info.id}"} reads what is unread; log ${info.logPath}).`
  );
}
