import { TODO_TOOL, todoItemsOf, todoProgress } from "../compaction/index.js";
import type { FlaggedTodoItem, Message, TodoItem } from "../core/index.js";
import { flagsInTodoAnswer } from "../todos/index.js";
import type { SessionLine } from "./session-lines.js";

/** One accepted `todo` call: the list as it stood from then on, with the flags its answer gave. */
export interface TodoChange {
  /** 1-based, in file order. */
  ordinal: number;
  callId: string;
  items: FlaggedTodoItem[];
  completed: number;
  total: number;
  flagged: number;
}

/**
 * Follows a session file's `todo` calls in file order: a call's items are held until its result
 * comes (the next tool message), and a result that is not an error makes a change. Both passes of
 * the export use one: the first keeps only each change's figures, the second renders the list where
 * its result is; held items are dropped at their result, so memory does not grow with the file.
 * Kept copies a compaction wrote are not fed to it: they repeat calls already seen.
 */
export class TodoChanges {
  readonly #held = new Map<string, TodoItem[]>();
  #count = 0;

  /** The changes a line of the file makes, by the todo call's id; undefined for none (a kept copy makes none). */
  ofLine(item: SessionLine): ReadonlyMap<string, TodoChange> | undefined {
    if (item.kind !== "entry" || item.entry.type !== "message" || item.entry.keptBy !== undefined)
      return undefined;
    const changes = this.see(item.entry.message);
    return changes.length === 0 ? undefined : new Map(changes.map((change) => [change.callId, change]));
  }

  /**
   * The changes a message makes (none but for a tool message answering todo calls); a message
   * whose fields are not what its role promises makes none (the page shows it as it is).
   */
  see(message: Message): TodoChange[] {
    try {
      return this.#see(message);
    } catch {
      return [];
    }
  }

  #see(message: Message): TodoChange[] {
    if (message.role === "assistant") {
      for (const block of message.content)
        if (block.type === "tool-call" && block.name === TODO_TOOL) {
          const items = todoItemsOf(block.arguments);
          if (items !== undefined) this.#held.set(block.id, items);
        }
      return [];
    }
    if (message.role !== "tool") return [];
    const changes: TodoChange[] = [];
    for (const result of message.content) {
      const items = this.#held.get(result.toolCallId);
      if (items === undefined) continue;
      this.#held.delete(result.toolCallId);
      if (result.isError) continue;
      const answer = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
      const flagged = flagsInTodoAnswer(items, answer);
      this.#count += 1;
      changes.push({
        ordinal: this.#count,
        callId: result.toolCallId,
        items: flagged,
        ...todoProgress(items),
        flagged: flagged.filter((item) => item.flag !== undefined).length,
      });
    }
    return changes;
  }
}
