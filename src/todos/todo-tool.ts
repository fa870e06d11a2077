import { flagTodos, TODO_TOOL, todoProgress, tooManyInProgress } from "../compaction/index.js";
import type { FlaggedTodoItem, TodoItem } from "../core/index.js";
import { type Session, todoLines } from "../session/index.js";
import { defineBuiltInTool, type Tool, type ToolOutput, todoSchema } from "../tools/index.js";
import { sessionLedger } from "./todo-state.js";

/** What the todo tool needs of the run: its session now, and who to tell of each accepted list. */
export interface TodoToolOptions {
  /** The session now (it changes on /clear and after a handoff), or undefined before there is one. */
  session: () => Session | undefined;
  /** Told the list (with its flags) each time a call replaces it. */
  onUpdate?: (items: readonly FlaggedTodoItem[]) => void;
}

const DESCRIPTION = [
  "Keep the task list of a multi-step task: each call gives the whole list, which replaces the one before.",
  "Items have content, a status (pending, in_progress, completed, cancelled; at most one in_progress) and, when",
  'a command or file shows whether the item is done, evidence naming it (e.g. "npm test" or "src/parser.ts").',
  "panto checks each completed item against the session's record of commands run and files changed, and flags",
  "one the record contradicts (its command's latest run failed, or its file changed after the latest passing run).",
  "Update the list as you start and finish items; it is kept across compactions.",
].join(" ");

/**
 * The `todo` tool. It is always offered (the tool list, and the cached prefix of every request,
 * never changes); it writes nothing but its call to the session, so it never asks. Its list is the
 * session's: derived from the latest accepted call (src/todos/todo-state.ts).
 */
export function createTodoTool(options: TodoToolOptions): Tool {
  return defineBuiltInTool({
    name: TODO_TOOL,
    description: DESCRIPTION,
    kind: "read",
    schema: todoSchema,
    async run(args): Promise<ToolOutput> {
      const items: TodoItem[] = args.items.map(({ content, status, evidence }) =>
        evidence === undefined ? { content, status } : { content, status, evidence },
      );
      const refused = tooManyInProgress(items);
      if (refused !== undefined) return { content: [{ type: "text", text: refused }], isError: true };
      const session = options.session();
      const ledger = session === undefined ? undefined : await sessionLedger(session);
      const flagged = flagTodos(items, ledger);
      options.onUpdate?.(flagged);
      return { content: [{ type: "text", text: todoAnswer(flagged) }], isError: false };
    },
  });
}

/** The tool's answer: the list as accepted, with its flags explained. */
export function todoAnswer(items: readonly FlaggedTodoItem[]): string {
  if (items.length === 0) return "Task list cleared.";
  const { completed, total } = todoProgress(items);
  const lines = [`Task list updated: ${completed} of ${total} completed.`, ...todoLines(items)];
  const flagged = items.filter((item) => item.flag !== undefined).length;
  if (flagged > 0)
    lines.push(
      "",
      `${flagged === 1 ? "1 completed item is" : `${flagged} completed items are`} flagged: the session's record contradicts its evidence, and the user sees the flag. Run the evidence again (the flag clears once it passes) or set the item's status to what is true.`,
    );
  return lines.join("\n");
}
