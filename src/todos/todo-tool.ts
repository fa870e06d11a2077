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

/**
 * The items of an accepted call with the flags its answer gave them then (`todoAnswer` read back,
 * for an export showing the list as it stood): the flags are not kept apart in the session, and
 * the ledger they came from is the one of that moment. Each item's line is known from the call, so
 * the answer is matched line by line, never guessed at; an answer that is not `todoAnswer`'s own
 * (another tool's, a session edited by hand) gives the items unflagged.
 */
export function flagsInTodoAnswer(items: readonly TodoItem[], answer: string): FlaggedTodoItem[] {
  const unflagged = items.map((item) => ({ ...item }));
  // Each item's line, as the answer wrote it after the headline, and where each one ends.
  const lines = todoLines(unflagged).map((line) => `\n${line}`);
  const spans: Array<{ start: number; end: number }> = [];
  let from = answer.indexOf("\n");
  for (const [index, line] of lines.entries()) {
    const start = index === 0 ? from : answer.indexOf(line, from);
    if (start === -1 || !answer.startsWith(line, start)) return unflagged;
    spans.push({ start, end: start + line.length });
    from = start + line.length;
  }
  // What follows the last item: the footer explaining flags, when there are any.
  const footer = answer.lastIndexOf("\n\n");
  const flagged: FlaggedTodoItem[] = [];
  for (const [index, item] of unflagged.entries()) {
    const end = spans[index]?.end ?? 0;
    const next = spans[index + 1]?.start ?? (footer >= end ? footer : answer.length);
    const between = answer.slice(end, next);
    if (between === "") flagged.push(item);
    else if (between.startsWith(FLAG_LINE)) flagged.push({ ...item, flag: between.slice(FLAG_LINE.length) });
    else return unflagged;
  }
  return flagged;
}

/** How `todoLines` sets a flag under its item. */
const FLAG_LINE = "\n   flagged: ";
