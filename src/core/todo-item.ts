/** The states a task list item can be in (the `todo` tool's `status`). */
export const TODO_STATUSES = ["pending", "in_progress", "completed", "cancelled"] as const;

export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of the task list, as the model gave it to the `todo` tool. */
export interface TodoItem {
  content: string;
  status: TodoStatus;
  /** A command (`npm test`) or a file (`src/parser.ts`) the item's state depends on. */
  evidence?: string;
}

/**
 * An item with what the ledger says against it: `flag` is set on a `completed` item whose evidence
 * the ledger contradicts ("completed, but the latest `npm test` (turn 14) exited 1").
 */
export interface FlaggedTodoItem extends TodoItem {
  flag?: string;
}
