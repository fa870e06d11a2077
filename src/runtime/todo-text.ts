import { todoProgress } from "../compaction/index.js";
import type { FlaggedTodoItem, TodoItem, TodoStatus } from "../core/index.js";
import { visible } from "./format-text.js";

/** A status as the user reads it. */
const STATUS_WORDS: Record<TodoStatus, string> = {
  pending: "pending",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/**
 * The task list's count for a status line: "tasks 3/7" (completed of all, cancelled items in
 * neither: the figures of `todoProgress`), or "" when no list is in force.
 */
export function todoCountText(items: readonly TodoItem[]): string {
  if (items.length === 0) return "";
  const { completed, total } = todoProgress(items);
  return `tasks ${completed}/${total}`;
}

/** The first line of a task list's report: "Task list: 2 of 5 completed (1 flagged)". */
export function todoHeadline(items: readonly FlaggedTodoItem[], completed: number, total: number): string {
  const flagged = items.filter((item) => item.flag !== undefined).length;
  return `Task list: ${completed} of ${total} completed${flagged === 0 ? "" : ` (${flagged} flagged)`}`;
}

/**
 * The list for the user: each item with its status as a word, then (indented) how its evidence
 * stands and its flag. `/todo` and a front-end showing an update print it alike. The model's text
 * is shown, never obeyed: escape sequences in it are made visible.
 */
export function todoListText(
  items: ReadonlyArray<FlaggedTodoItem & { evidenceState?: string }>,
  completed: number,
  total: number,
): string {
  if (items.length === 0)
    return "No task list: the model keeps one with the todo tool, and has not made one in this session.";
  const lines = [todoHeadline(items, completed, total)];
  items.forEach((item, index) => {
    lines.push(`${index + 1}. ${STATUS_WORDS[item.status]}: ${item.content}`);
    if (item.evidenceState !== undefined) lines.push(`   evidence: ${item.evidenceState}`);
    else if (item.evidence !== undefined) lines.push(`   evidence: ${item.evidence}`);
    if (item.flag !== undefined) lines.push(`   flagged: ${item.flag}`);
  });
  return visible(lines.join("\n"));
}

/**
 * JSON mode's `todo_updated` line: `{"type": "todo_updated", "items": [{content, status, evidence?,
 * flag?}], "completed", "total"}` (evidence and flag left out when absent). Kept here, beside the
 * other texts of the list, so every front-end's rendering of it is one file.
 */
export function todoUpdatedJson(
  items: readonly FlaggedTodoItem[],
  completed: number,
  total: number,
): { type: "todo_updated" } & Record<string, unknown> {
  return {
    type: "todo_updated",
    items: items.map((item) => ({
      content: item.content,
      status: item.status,
      ...(item.evidence === undefined ? {} : { evidence: item.evidence }),
      ...(item.flag === undefined ? {} : { flag: item.flag }),
    })),
    completed,
    total,
  };
}
