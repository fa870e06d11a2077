import { z } from "zod";
import { SANDBOX_MODES, TODO_STATUSES } from "../../core/index.js";

// The one description of every `--json` event (and stream-json's additions): the program API's
// event types are inferred from it, and the JSON Schema shipped as `panto/schema/events.json` is
// generated from it (scripts/generate-events-schema.mjs; test/frontends/events-schema.test.ts fails
// while the file is stale, and checks the events of real runs against it). Only the API and that
// script load this file: zod stays off the CLI's start-up path. Objects are strict, so an emitted
// field missing here fails the test rather than going undocumented.

const count = z.number().int().nonnegative();
const tokens = count;
const trigger = z.enum(["overflow", "manual", "edited", "cold_cache"]);
const stopReason = z.enum(["stop", "length", "tool_use", "content_filter", "error", "aborted"]);

/** The agent's token counts of one request (`assistant_message.usage`). */
const requestUsage = z.strictObject({
  prompt_tokens: tokens,
  output_tokens: tokens,
  cache_read_tokens: tokens.optional(),
  cache_write_tokens: tokens.optional(),
  reasoning_tokens: tokens.optional(),
});

const tokenCounts = {
  input_tokens: tokens,
  output_tokens: tokens,
  cache_read_tokens: tokens,
  cache_write_tokens: tokens,
};

/** The whole session's totals, as `/cost` shows them (`done.usage`, `result.usage`). */
export const sessionUsageSchema = z
  .strictObject({
    ...tokenCounts,
    compaction: z.strictObject(tokenCounts),
    subagents: z.strictObject({ sessions: count, ...tokenCounts }).optional(),
  })
  .describe("the whole session's token totals (resumed history included, all models)");

const sessionRef = z.strictObject({ id: z.string(), path: z.string() });

const approvalMode = z.enum(["plan", "ask", "accept-edits", "allow-all"]);

const sessionStarted = z.strictObject({
  type: z.literal("session_started"),
  session_id: z.string(),
  session_path: z.string(),
  model: z.string(),
  resumed: z.boolean(),
  cwd: z.string(),
  mode: approvalMode,
  sandbox: z.strictObject({
    mode: z.enum(SANDBOX_MODES),
    network: z.boolean(),
    writable_roots: z.array(z.string()),
  }),
});

const assistantMessage = z.strictObject({
  type: z.literal("assistant_message"),
  text: z.string(),
  stop_reason: stopReason,
  model: z.string(),
  provider: z.string(),
  usage: requestUsage.nullable(),
});

const toolCall = z.strictObject({
  type: z.literal("tool_call"),
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
});

const toolResult = z.strictObject({
  type: z.literal("tool_result"),
  tool_call_id: z.string(),
  name: z.string(),
  is_error: z.boolean(),
  text: z.string(),
});

const compactionStarted = z.strictObject({
  type: z.literal("compaction_started"),
  trigger,
  model: z.string(),
  tokens_before: tokens,
});

const compactionAttemptFailed = z.strictObject({
  type: z.literal("compaction_attempt_failed"),
  trigger,
  model: z.string(),
  code: z.string(),
  message: z.string(),
});

const ledger = z.strictObject({
  files: z.array(
    z.strictObject({
      path: z.string(),
      changes: z.array(
        z.strictObject({
          change: z.enum(["created", "written", "edited", "deleted"]),
          turn: count.optional(),
        }),
      ),
    }),
  ),
  commands: z.array(
    z.strictObject({
      command: z.string(),
      turn: count.optional(),
      exit_code: z.number().int().nullable(),
      ending: z.string(),
      error: z.string().optional(),
    }),
  ),
  more_files: count.optional(),
  more_commands: count.optional(),
});

const chunking = z.union([
  z.strictObject({
    reason: z.literal("cut_up_front"),
    model: z.string(),
    context_window: tokens,
    estimated_tokens: tokens,
    ratio: z.number(),
    least_tokens: z.number(),
    requests: count,
  }),
  z.strictObject({
    reason: z.literal("rejected_whole"),
    model: z.string(),
    request_tokens: tokens.optional(),
    context_window: tokens.optional(),
    requests: count,
  }),
]);

const sizeSources = z.strictObject({ usage: count, estimate: count });

const compaction = z.strictObject({
  type: z.literal("compaction"),
  trigger,
  model: z.string(),
  fallback: z.boolean(),
  turns_summarised: count,
  turns_kept: count,
  tokens_summarised: tokens,
  tokens_kept: tokens,
  tokens_before: tokens,
  tokens_after: tokens,
  request_tokens: tokens.optional(),
  context_window: tokens.optional(),
  summary_tokens: tokens,
  size_sources: sizeSources,
  summary: z.string(),
  duration_ms: z.number().nonnegative(),
  prepared: z.literal(true).optional(),
  restored: z.array(z.strictObject({ kind: z.enum(["path", "command", "error", "task"]), text: z.string() })),
  through_turn: count.optional(),
  ledger: ledger.optional(),
  unverified: z.array(z.strictObject({ claim: z.string(), evidence: z.string() })),
  skills: z.array(z.string()).optional(),
  instructions: z.string().optional(),
  chunks: count.optional(),
  chunking: chunking.optional(),
});

const compactionFailed = z.strictObject({
  type: z.literal("compaction_failed"),
  trigger,
  code: z.string(),
  message: z.string(),
  attempts: z.array(z.strictObject({ model: z.string(), code: z.string(), message: z.string() })),
  duration_ms: z.number().nonnegative(),
});

const compactionSkipped = z.strictObject({
  type: z.literal("compaction_skipped"),
  trigger,
  reason: z.string(),
});

const compactionPreview = z.strictObject({
  type: z.literal("compaction_preview"),
  trigger: z.literal("manual"),
  model: z.string(),
  fallback_model: z.string().optional(),
  turns_summarised: count,
  turns_kept: count,
  tokens_summarised: tokens,
  tokens_kept: tokens,
  tokens_before: tokens,
  size_sources: sizeSources,
  request_tokens: tokens,
  turns: z.array(
    z.strictObject({
      position: count,
      action: z.enum(["summarise", "keep"]),
      user_text: z.string(),
      tokens,
      source: z.enum(["usage", "estimate"]),
    }),
  ),
  instructions: z.string().optional(),
  nothing_to_summarise: z.string().optional(),
});

const compactionPrepared = z.strictObject({
  type: z.literal("compaction_prepared"),
  model: z.string(),
  turns_summarised: count,
  tokens_summarised: tokens,
  summary_tokens: tokens,
  duration_ms: z.number().nonnegative(),
  /** Written because the prompt cache went cold (config `compact_when_cold`): your next prompt applies it. */
  cold_cache: z.literal(true).optional(),
});

const compactionUndone = z.strictObject({
  type: z.literal("compaction_undone"),
  compaction_id: z.string(),
  trigger,
  tokens_before: tokens,
  tokens_after: tokens,
  earlier_compaction: z.boolean(),
});

const pinFields = { number: count, text: z.string(), pins: z.array(z.string()) };
const pinned = z.strictObject({ type: z.literal("pinned"), ...pinFields });
const unpinned = z.strictObject({ type: z.literal("unpinned"), ...pinFields });

const summaryEdited = z.strictObject({
  type: z.literal("summary_edited"),
  compaction_id: z.string(),
  summary_tokens: tokens,
  tokens_before: tokens,
  tokens_after: tokens,
});

const handoff = z.strictObject({
  type: z.literal("handoff"),
  goal: z.string(),
  model: z.string().nullable(),
  draft: z.string(),
  parent: sessionRef,
  session: sessionRef.nullable(),
});

const clearingFields = {
  tool_results: count,
  ids: z.array(z.string()),
  tokens_before: tokens,
  tokens_after: tokens,
  clearing_id: z.string(),
};
const contextCleared = z.strictObject({
  type: z.literal("context_cleared"),
  ...clearingFields,
  reason: z.enum(["trigger", "cold_cache"]),
});
const clearingUndone = z.strictObject({ type: z.literal("clearing_undone"), ...clearingFields });

const overflowRetry = z.strictObject({ type: z.literal("overflow_retry") });
const retry = z.strictObject({
  type: z.literal("retry"),
  attempt: count,
  delay_ms: z.number().nonnegative(),
  reason: z.string(),
});
const warning = z.strictObject({
  type: z.literal("warning"),
  message: z.string(),
  code: z.string().optional(),
});
const notice = z.strictObject({ type: z.literal("notice"), message: z.string() });

const hook = z.strictObject({
  type: z.literal("hook"),
  event: z.string(),
  command: z.string(),
  exit_code: z.number().int().nullable(),
  duration_ms: z.number().nonnegative(),
  blocked: z.boolean(),
  timed_out: z.boolean(),
});

const contextWarning = z.strictObject({
  type: z.literal("context_warning"),
  level: z.number().positive(),
  used: tokens,
  size: tokens,
});

const backgroundTask = {
  id: z.string(),
  command: z.string(),
  tool_call_id: z.string().nullable(),
  log: z.string(),
};

const backgroundTaskStarted = z.strictObject({
  type: z.literal("background_task_started"),
  ...backgroundTask,
});

const backgroundTaskExited = z.strictObject({
  type: z.literal("background_task_exited"),
  ...backgroundTask,
  ending: z.enum(["exited", "killed", "sandbox-failed", "running"]),
  exit_code: z.number().int().optional(),
  killed_by: z.enum(["kill_task", "user", "session-end", "signal"]).optional(),
  output_bytes: count,
  duration_ms: count,
});

const modeChanged = z.strictObject({
  type: z.literal("mode_changed"),
  mode: approvalMode,
  previous: approvalMode,
});

const todoUpdated = z.strictObject({
  type: z.literal("todo_updated"),
  items: z.array(
    z.strictObject({
      content: z.string(),
      status: z.enum(TODO_STATUSES),
      evidence: z.string().optional(),
      flag: z.string().optional(),
    }),
  ),
  completed: count,
  total: count,
});

const checkpoint = z.strictObject({
  type: z.literal("checkpoint"),
  tool_call_id: z.string(),
  tool: z.string(),
  scope: z.enum(["file", "workspace"]),
  files: z.array(z.strictObject({ path: z.string(), change: z.enum(["created", "modified", "deleted"]) })),
  uncovered: z.array(
    z.strictObject({
      path: z.string(),
      reason: z.enum([
        "ignored",
        "too-large",
        "nested-repository",
        "special-file",
        "content-unavailable",
        "outside-workspace",
      ]),
    }),
  ),
  error: z.string().optional(),
});

const rewind = z.strictObject({
  type: z.literal("rewind"),
  dry_run: z.boolean(),
  session: z.string(),
  turn: count,
  undo: z.boolean(),
  scope: z.enum(["both", "code", "conversation"]),
  dropped_turns: z.array(count),
  restored_turns: z.array(count),
  files: z.array(
    z.strictObject({
      path: z.string(),
      outcome: z.enum(["restored", "unchanged", "conflict", "overwritten", "skipped", "failed"]),
      change: z.enum(["create", "modify", "delete"]).optional(),
      reason: z.string().optional(),
    }),
  ),
  blocked: z.string().nullable(),
});

const fork = z.strictObject({
  type: z.literal("fork"),
  session_id: z.string(),
  path: z.string(),
  parent_id: z.string().nullable(),
  parent_path: z.string().nullable(),
  turn: count,
});

const taskFields = { tool_call_id: z.string(), agent: z.string() };
const taskStarted = z.strictObject({
  type: z.literal("task_started"),
  ...taskFields,
  session_id: z.string(),
  session_path: z.string(),
});
const taskFinished = z.strictObject({
  type: z.literal("task_finished"),
  ...taskFields,
  session_id: z.string(),
  ok: z.boolean(),
});

const error = z.strictObject({
  type: z.literal("error"),
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
});

const done = z.strictObject({
  type: z.literal("done"),
  exit_code: z.number().int(),
  text: z.string().optional(),
  usage: sessionUsageSchema.optional(),
});

const permissionRequest = z.strictObject({
  type: z.literal("permission_request"),
  id: z.string(),
  tool: z.string(),
  input: z.record(z.string(), z.unknown()),
  tool_call_id: z.string(),
  escape_reason: z.string().optional(),
  rule: z.string().optional(),
  suggested_rules: z.array(z.string()).optional(),
  origin: z.string().optional(),
});

const requestId = z.union([z.string(), z.number()]);
const controlResponse = z.strictObject({
  type: z.literal("control_response"),
  response: z.union([
    z.strictObject({ subtype: z.literal("success"), request_id: requestId }),
    z.strictObject({ subtype: z.literal("error"), request_id: requestId, error: z.string() }),
  ]),
});

const result = z.strictObject({
  type: z.literal("result"),
  line: count
    .optional()
    .describe("stream-json: the stdin line the input came on (absent from the program API)"),
  exit_code: z.number().int(),
  is_error: z.boolean(),
  text: z.string().optional(),
  session_id: z.string(),
  usage: sessionUsageSchema,
});

/** What a `task` child reports of its own work: the agent's events, as the main agent's are shown. */
const agentEvents = [
  assistantMessage,
  toolCall,
  toolResult,
  retry,
  compactionStarted,
  compaction,
  compactionFailed,
  compactionSkipped,
  compactionAttemptFailed,
  compactionPrepared,
  compactionUndone,
  pinned,
  unpinned,
  summaryEdited,
  overflowRetry,
  contextCleared,
  clearingUndone,
  hook,
  checkpoint,
  warning,
] as const;

const taskEvent = z.strictObject({
  type: z.literal("task_event"),
  ...taskFields,
  event: z.discriminatedUnion("type", [...agentEvents]),
});

/** Every event `--json` writes, and stream-json's and the program API's additions. */
export const jsonEventSchema = z.discriminatedUnion("type", [
  sessionStarted,
  ...agentEvents,
  compactionPreview,
  handoff,
  notice,
  contextWarning,
  todoUpdated,
  modeChanged,
  backgroundTaskStarted,
  backgroundTaskExited,
  taskStarted,
  taskEvent,
  taskFinished,
  rewind,
  fork,
  error,
  done,
  permissionRequest,
  controlResponse,
  result,
]);

/** One `--json` event, as the program API yields it and `panto/schema/events.json` describes it. */
export type PantoEvent = z.output<typeof jsonEventSchema>;
/** The session's token totals of `done` and `result`. */
export type SessionUsage = z.output<typeof sessionUsageSchema>;

/**
 * The JSON Schema of every event (draft 2020-12), as shipped in `schema/events.json`: each event
 * one definition named after its type (so `task_event`'s nested events refer to them).
 */
export function eventsJsonSchema(): Record<string, unknown> {
  const names = z.registry<{ id: string }>();
  for (const option of jsonEventSchema.options) names.add(option, { id: option.shape.type.value });
  names.add(sessionUsageSchema, { id: "session_usage" });
  return {
    ...z.toJSONSchema(jsonEventSchema, { target: "draft-2020-12", metadata: names }),
    title: "panto --json event",
    description:
      "One line of `panto --json` output (and of `--input-format stream-json`), and one event of the program API's session.stream(). Field names are snake_case and stable.",
  };
}
