import type { AgentEvent } from "../../agent/index.js";
import type { AssistantMessage, CompactionLedger, SummaryChunking, Usage } from "../../core/index.js";
import { optional, triggerName } from "../../core/index.js";
import { toolDeniedText } from "../../runtime/format-text.js";
import type { RunEvent } from "../../runtime/run-events.js";
import { todoUpdatedJson } from "../../runtime/todo-text.js";
import { checkpointJson } from "../shared/rewind-json.js";
import { backgroundTaskJson } from "./background-task-json.js";
import { compactionControlEvent, compactionPreviewEvent } from "./compaction-json-events.js";
import type { JsonEvent } from "./json-event.js";
import { taskJsonEvent } from "./task-json-events.js";

export type { JsonEvent } from "./json-event.js";

/**
 * Converts a run's event to its JSON line, or undefined for events JSON mode leaves out (deltas).
 * A command's outcome is not among them: it ends the run, as its `error` (when it failed) and `done`.
 */
export function toJsonEvent(event: Exclude<RunEvent, { type: "command" }>): JsonEvent | undefined {
  switch (event.type) {
    case "run-warning":
      return { type: "warning", message: event.message };
    case "run-notice":
      return { type: "notice", message: event.message };
    case "handoff":
      return {
        type: "handoff",
        goal: event.goal,
        model: event.model ?? null,
        draft: event.draft,
        parent: event.parent,
        session: event.session ?? null,
      };
    case "tool-denied":
      return {
        type: "warning",
        message: `${toolDeniedText(event)} (call id ${event.call.id})`,
      };
    case "prompt-sent":
    case "text-delta":
    case "thinking-delta":
    case "compaction-progress":
    case "request-started":
    case "tool-started":
    case "file-changed":
      return undefined;
    case "assistant-message":
      return assistantMessageEvent(event.message);
    case "tool-call":
      return { type: "tool_call", id: event.call.id, name: event.call.name, arguments: event.call.arguments };
    case "tool-result":
      return {
        type: "tool_result",
        tool_call_id: event.result.toolCallId,
        name: event.result.toolName,
        is_error: event.result.isError,
        text: event.result.content
          .map((block) => (block.type === "text" ? block.text : `[image ${block.mediaType}]`))
          .join("\n"),
      };
    case "retry-wait":
      return { type: "retry", attempt: event.attempt, delay_ms: event.delayMs, reason: event.reason };
    case "compaction-started":
      return {
        type: "compaction_started",
        trigger: triggerName(event.trigger),
        model: event.model,
        tokens_before: event.tokensBefore,
      };
    case "compaction":
      return compactionEvent(event);
    case "compaction-failed":
      return {
        type: "compaction_failed",
        trigger: triggerName(event.trigger),
        code: event.code,
        message: event.message,
        attempts: event.attempts,
        duration_ms: event.durationMs,
      };
    case "compaction-skipped":
      return { type: "compaction_skipped", trigger: triggerName(event.trigger), reason: event.reason };
    case "compaction-preview":
      return compactionPreviewEvent(event);
    case "compaction-attempt-failed":
    case "compaction-undone":
    case "pinned":
    case "unpinned":
    case "summary-edited":
      return compactionControlEvent(event);
    case "overflow-retry":
      return { type: "overflow_retry" };
    case "context-cleared":
      return {
        type: "context_cleared",
        tool_results: event.toolCallIds.length,
        ids: event.toolCallIds,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
        reason: event.reason.replace("-", "_"),
        clearing_id: event.clearingId,
      };
    case "clearing-undone":
      return {
        type: "clearing_undone",
        tool_results: event.toolCallIds.length,
        ids: event.toolCallIds,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
        clearing_id: event.clearingId,
      };
    case "hook":
      return {
        type: "hook",
        event: event.run.event,
        command: event.run.command,
        exit_code: event.run.exitCode,
        duration_ms: event.run.durationMs,
        blocked: event.run.blocked,
        timed_out: event.run.timedOut,
      };
    case "checkpoint":
      return checkpointJson(event.entry);
    case "warning":
      return {
        type: "warning",
        ...optional("code", event.code),
        message: event.message,
      };
    case "compaction-prepared":
      return {
        type: "compaction_prepared",
        model: event.model,
        turns_summarised: event.turnsSummarised,
        tokens_summarised: event.tokensSummarised,
        summary_tokens: event.summaryTokens,
        duration_ms: event.durationMs,
        ...(event.coldCache === true ? { cold_cache: true } : {}),
      };
    case "context-warning":
      return { type: "context_warning", level: event.level, used: event.used, size: event.size };
    case "todo-updated":
      return todoUpdatedJson(event.items, event.completed, event.total);
    case "mode-changed":
      return { type: "mode_changed", mode: event.mode, previous: event.previous };
    case "task-started":
    case "task-event":
    case "task-finished":
      return taskJsonEvent(event, toJsonEvent);
    case "background-task-started":
    case "background-task-exited":
      return backgroundTaskJson(event);
  }
}

function assistantMessageEvent(message: AssistantMessage): JsonEvent {
  return {
    type: "assistant_message",
    text: message.content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join(""),
    stop_reason: message.stopReason.replace(/-/g, "_"),
    model: message.model,
    provider: message.provider,
    usage: message.usage === undefined ? null : usageJson(message.usage),
  };
}

function usageJson(usage: Usage): Record<string, number> {
  return {
    prompt_tokens: usage.promptTokens,
    output_tokens: usage.outputTokens,
    ...optional("cache_read_tokens", usage.cacheReadTokens),
    ...optional("cache_write_tokens", usage.cacheWriteTokens),
    ...optional("reasoning_tokens", usage.reasoningTokens),
  };
}

function compactionEvent(event: Extract<AgentEvent, { type: "compaction" }>): JsonEvent {
  const { record } = event;
  return {
    type: "compaction",
    trigger: triggerName(record.trigger),
    model: record.model,
    fallback: record.fellBack,
    turns_summarised: record.turnsSummarised,
    turns_kept: record.turnsKept,
    tokens_summarised: record.tokensSummarised,
    tokens_kept: record.tokensKept,
    tokens_before: event.tokensBefore,
    tokens_after: event.tokensAfter,
    ...optional("request_tokens", event.requestTokens),
    ...optional("context_window", event.contextWindow),
    summary_tokens: record.summaryTokens,
    size_sources: record.sizeSources,
    summary: record.summary,
    duration_ms: event.durationMs,
    ...(event.prepared === true ? { prepared: true } : {}),
    restored: record.restored ?? [],
    ...optional("through_turn", record.turns?.through),
    ...(record.ledger === undefined ? {} : { ledger: ledgerJson(record.ledger) }),
    unverified: record.unverified ?? [],
    ...optional("skills", record.skills),
    ...optional("instructions", record.instructions),
    ...optional("chunks", record.chunks),
    ...(record.chunking === undefined ? {} : { chunking: chunkingJson(record.chunking) }),
  };
}

/** Why the summary was chunked, field names snake_case. */
function chunkingJson(chunking: SummaryChunking): Record<string, unknown> {
  if (chunking.reason === "cut_up_front")
    return {
      reason: chunking.reason,
      model: chunking.model,
      context_window: chunking.contextWindow,
      estimated_tokens: chunking.estimatedTokens,
      ratio: chunking.ratio,
      least_tokens: chunking.leastTokens,
      requests: chunking.requests,
    };
  return {
    reason: chunking.reason,
    model: chunking.model,
    ...optional("request_tokens", chunking.requestTokens),
    ...optional("context_window", chunking.contextWindow),
    requests: chunking.requests,
  };
}

/** The restored ledger with its field names snake_case. */
function ledgerJson(ledger: CompactionLedger): Record<string, unknown> {
  return {
    files: ledger.files,
    commands: ledger.commands.map((command) => ({
      command: command.command,
      ...optional("turn", command.turn),
      exit_code: command.exitCode,
      ending: command.ending,
      ...optional("error", command.error),
    })),
    ...optional("more_files", ledger.moreFiles),
    ...optional("more_commands", ledger.moreCommands),
  };
}

/** Serialises one event as its own line. */
export function jsonLine(event: JsonEvent): string {
  return `${JSON.stringify(event)}\n`;
}
