import type { Zod } from "./define-tool.js";

/** Hits a recall search shows at most. */
export const MAX_RECALL_HITS = 20;
/** Hits a recall search shows unless `limit` says otherwise. */
export const DEFAULT_RECALL_HITS = 8;

/**
 * The arguments of the `recall` tool (its engine is src/recall/): a search (`query`, `kind`,
 * `limit`) or a read (`turn`, `to`, `offset`), optionally in another session of the lineage. The
 * schema lives with the built-in tools so that its JSON Schema is generated with theirs.
 */
export const recallSchema = (z: Zod) =>
  z.strictObject({
    query: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Search: words (any order, case-insensitive, parts of words match) and "quoted phrases" (matched as written).',
      ),
    kind: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Search only: "user", "assistant", "tool_call", "tool_result", or a tool name such as "bash" or "edit".',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_RECALL_HITS)
      .optional()
      .describe(`Search only: hits to show (default ${DEFAULT_RECALL_HITS}).`),
    turn: z.number().int().min(1).optional().describe("Read: the number of the turn to read back whole."),
    to: z.number().int().min(1).optional().describe("Read: the last turn of a range starting at `turn`."),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Read: characters to skip, to continue a long reading where the last page stopped."),
    tool_result: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Read: the id of a tool call whose output to read back whole (a cleared output's stub names it).",
      ),
    task: z
      .string()
      .regex(/^bg\d+$/, 'a background task id such as "bg1"')
      .optional()
      .describe(
        'Read: a background task\'s whole output log, by its id (e.g. "bg1"), paged with `offset` (kept in the session folder, also after the task or the session ended).',
      ),
    session: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Read or search only this session: "current", "parent", or the id prefix of a session this one was started from (default: search them all, read the current one).',
      ),
  });
