import { TODO_STATUSES } from "../core/index.js";
import type { Zod } from "./define-tool.js";

/** Items a task list holds at most. */
export const MAX_TODO_ITEMS = 50;
/** An item's text, or its evidence: at most this many characters. */
export const MAX_TODO_TEXT_CHARS = 500;

/**
 * The arguments of the `todo` tool (its engine is src/todos/): the whole list, which replaces the
 * one before. The schema lives with the built-in tools so that its JSON Schema is generated with theirs.
 */
export const todoSchema = (z: Zod) =>
  z.strictObject({
    items: z
      .array(
        z.strictObject({
          content: z.string().min(1).max(MAX_TODO_TEXT_CHARS).describe("What the item is, in one line."),
          status: z.enum(TODO_STATUSES).describe("At most one item is in_progress."),
          evidence: z
            .string()
            .min(1)
            .max(MAX_TODO_TEXT_CHARS)
            .optional()
            .describe(
              'The command or file the item\'s state depends on, e.g. "npm test" or "src/parser.ts": panto checks a completed item against its latest run or change.',
            ),
        }),
      )
      .max(MAX_TODO_ITEMS)
      .describe("The whole task list, in order; it replaces the list before. An empty list clears it."),
  });
