import type { BackgroundTaskEvent } from "../../tools/index.js";
import type { JsonEvent } from "./json-event.js";

/**
 * `background_task_started` {id, command, tool_call_id, log} and `background_task_exited` {id,
 * command, tool_call_id, log, ending ("exited", "killed", "sandbox-failed"), exit_code (exited),
 * killed_by ("kill_task", "session-end", "signal"), output_bytes, duration_ms}.
 */
export function backgroundTaskJson(event: BackgroundTaskEvent): JsonEvent {
  const { task } = event;
  const base = {
    id: task.id,
    command: task.command,
    tool_call_id: task.callId ?? null,
    log: task.logPath,
  };
  if (event.type === "background-task-started") return { type: "background_task_started", ...base };
  const ending = task.ending;
  return {
    type: "background_task_exited",
    ...base,
    ending: ending?.kind ?? "running",
    ...(ending?.kind === "exited" ? { exit_code: ending.code } : {}),
    ...(ending?.kind === "killed" ? { killed_by: ending.by } : {}),
    output_bytes: task.outputBytes,
    duration_ms: (task.endedAt ?? Date.now()) - task.startedAt,
  };
}
