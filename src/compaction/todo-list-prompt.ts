/** The heading of the compaction system prompt's note about the task list. */
export const TODO_LIST_PROMPT_HEADING = "## Task list";

/**
 * The compaction system prompt with a closing note that the session has a task list (the `todo`
 * tool's): panto carries it in a section of its own next to the summary, so the summary need not
 * restate it. The prompt is unchanged without one.
 */
export function withTodoListNote(systemPrompt: string, hasList: boolean): string {
  if (!hasList) return systemPrompt;
  return `${systemPrompt.trimEnd()}\n\n${TODO_LIST_PROMPT_HEADING}\n\nThe session has a task list, kept with the todo tool. panto carries the current list word for word, with each item's status, in a section of its own next to your summary, so do not restate the list or its items' states in the summary; say what was learned and decided instead.\n`;
}
