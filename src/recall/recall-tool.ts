import {
  DEFAULT_RECALL_HITS,
  defineBuiltInTool,
  recallSchema,
  type Tool,
  type ToolOutput,
} from "../tools/index.js";
import type { RecallSession } from "./recall.js";

/** What the recall tool needs of the run: its session now, and the redactor everything passes through. */
export interface RecallToolOptions {
  /** The session now (it changes on /clear and after a handoff), or undefined before there is one. */
  session: () => RecallSession | undefined;
  /** Applied to every answer (known secrets -> "[redacted NAME]"), like everything panto writes. */
  redact?: (text: string) => string;
}

const DESCRIPTION = [
  "Look up this session's history, which stays on record whole: turns a compaction summarised (the summary says which),",
  "failed turns, and the session this one was handed off or forked from.",
  'Search with `query`: words (any order, case-insensitive) and "quoted phrases"; `kind` narrows to user, assistant,',
  "tool_call, tool_result or one tool (bash, edit, ...). Hits come best first (most words, then newest) with their turn",
  "number, time, role or tool, whether the turn is summarised, failed or in the context, a stale note when a later edit",
  "or run changed what it says, and a snippet.",
  "Read with `turn` (and `to` for a range): those turns whole, paged with `offset` when long.",
  'Read one tool output whole with `tool_result` (a call id): a cleared output\'s stub names it, e.g. {"tool_result": "toolu_01"}.',
  'Read a background task\'s whole output log with `task` (e.g. {"task": "bg1"}), paged by `offset` in bytes.',
  "Searches cover cleared outputs too, marked as cleared.",
].join(" ");

/**
 * The `recall` tool. It is always offered, before and after compactions alike, so the tool list (and
 * the cached prefix of every request) never changes; it reads the session files only, runs without
 * asking, and its answers are never indexed themselves.
 */
export function createRecallTool(options: RecallToolOptions): Tool {
  const redact = options.redact ?? ((text: string) => text);
  return defineBuiltInTool({
    name: "recall",
    description: DESCRIPTION,
    kind: "read",
    schema: recallSchema,
    async run(args, context): Promise<ToolOutput> {
      const session = options.session();
      if (session === undefined)
        return { content: [{ type: "text", text: "recall: nothing is recorded yet" }], isError: true };
      // The search engine is loaded by the first recall, not at every start.
      const { recall } = await import("./recall.js");
      const answer = await recall(session, {
        ...args,
        limit: args.limit ?? DEFAULT_RECALL_HITS,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      return { content: [{ type: "text", text: redact(answer.text) }], isError: !answer.ok };
    },
  });
}
