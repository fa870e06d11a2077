import { type BackgroundTaskEvent, type BackgroundTaskInfo, describeTaskEnding } from "../tools/index.js";

/** One line for a background task's start or end, as print mode and the terminal say it. */
export function backgroundTaskLine(event: BackgroundTaskEvent): string {
  const { task } = event;
  if (event.type === "background-task-started") return `background task ${task.id} started: ${task.command}`;
  return `background task ${task.id} ${endingText(task)}, ${task.outputBytes} bytes of output (${task.logPath})`;
}

function endingText(task: BackgroundTaskInfo): string {
  return task.ending === undefined ? "running" : `ended: ${describeTaskEnding(task.ending)}`;
}

/** `/tasks`: one line per background task of the run, or a sentence saying there are none. */
export function backgroundTasksText(tasks: readonly BackgroundTaskInfo[], now = Date.now()): string {
  if (tasks.length === 0)
    return "No background tasks in this session (bash with run_in_background starts one).";
  const lines = tasks.map((task) => {
    const seconds = Math.round(((task.endedAt ?? now) - task.startedAt) / 1000);
    const state = task.ending === undefined ? "running" : describeTaskEnding(task.ending);
    return `${task.id}  ${state}  ${formatDuration(seconds)}  ${task.outputBytes} bytes  ${task.command}`;
  });
  const running = tasks.filter((task) => task.ending === undefined).length;
  return [`Background tasks (${running} running; logs in ${dirOf(tasks[0]?.logPath ?? "")}):`, ...lines].join(
    "\n",
  );
}

function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}

function dirOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/"));
}
