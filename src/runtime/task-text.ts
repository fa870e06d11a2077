import type { AgentEvent } from "../agent/index.js";
import type { TaskEvent } from "../subagents/index.js";

/**
 * One line for a `task` child's event, for the text front-ends: its start and end, and each line
 * the front-end would show for the same event of the main agent (`line`), prefixed with the child's
 * name. Its streamed text is not shown: its report arrives as the task's result.
 */
export function taskEventLine(
  event: TaskEvent,
  line: (event: AgentEvent) => string | undefined,
): string | undefined {
  switch (event.type) {
    case "task-started":
      return `task ${event.agent} started (session ${event.sessionId.slice(0, 8)}, ${event.sessionPath})`;
    case "task-finished":
      return `task ${event.agent} ${event.ok ? "finished" : "failed"} (session ${event.sessionId.slice(0, 8)})`;
    case "task-event": {
      const inner = line(event.event);
      return inner === undefined ? undefined : `[task ${event.agent}] ${inner}`;
    }
  }
}
