import type { AgentEvent } from "../../agent/index.js";
import type { TaskEvent } from "../../subagents/index.js";
import type { JsonEvent } from "./json-event.js";

/**
 * A `task` child's events, nested under the task's tool-call id: `task_started` (its session),
 * `task_event` (one of its own events, as JSON mode shows the main agent's, in `event`), and
 * `task_finished`. Events JSON mode leaves out (deltas) are left out here too.
 */
export function taskJsonEvent(
  event: TaskEvent,
  inner: (event: AgentEvent) => JsonEvent | undefined,
): JsonEvent | undefined {
  const base = { tool_call_id: event.toolCallId, agent: event.agent };
  switch (event.type) {
    case "task-started":
      return { type: "task_started", ...base, session_id: event.sessionId, session_path: event.sessionPath };
    case "task-finished":
      return { type: "task_finished", ...base, session_id: event.sessionId, ok: event.ok };
    case "task-event": {
      const nested = inner(event.event);
      return nested === undefined ? undefined : { type: "task_event", ...base, event: nested };
    }
  }
}
