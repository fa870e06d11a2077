import type { CompactionPreview } from "../compaction/index.js";
import type {
  AssistantMessage,
  CompactionRecord,
  CompactionTrigger,
  ErrorCode,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/index.js";
import type { HookRun } from "../hooks/index.js";
import type { CheckpointEntry } from "../session/index.js";
import type { FileChange } from "../tools/index.js";

/** One failed summary request of a compaction, as data. */
export interface CompactionAttemptReport {
  model: string;
  code: ErrorCode;
  message: string;
}

/** What the agent reports while it works. The CLI renders these as text, or as JSON lines with --json. */
export type AgentEvent =
  | { type: "text-delta"; text: string }
  | { type: "thinking-delta"; text: string }
  /** A complete assistant message, usage included (undefined when the provider reported none). */
  | { type: "assistant-message"; message: AssistantMessage }
  /** A model request is about to be sent (each tool round, and an overflow's retry). For progress displays. */
  | { type: "request-started"; model: string }
  | { type: "tool-call"; call: ToolCallBlock }
  /** A tool call allowed to run starts now (after any permission question). For progress displays. */
  | { type: "tool-started"; call: ToolCallBlock }
  | { type: "tool-result"; result: ToolResultBlock }
  /** What a `write` or `edit` call changed, once written (before its result): the whole texts, for a diff. */
  | { type: "file-changed"; toolCallId: string; change: FileChange }
  /** What a tool call changed, recorded around it (an `error` when it could not be recorded). */
  | { type: "checkpoint"; entry: CheckpointEntry }
  | { type: "retry-wait"; attempt: number; delayMs: number; reason: string }
  /** A summary request is about to be sent (once per model tried). */
  | { type: "compaction-started"; trigger: CompactionTrigger; model: string; tokensBefore: number }
  /** Characters of summary received so far, for a progress display. */
  | { type: "compaction-progress"; characters: number }
  /** One summary request failed; the fallback model (if any) is asked next. */
  | ({ type: "compaction-attempt-failed"; trigger: CompactionTrigger } & CompactionAttemptReport)
  | {
      type: "compaction";
      /** The compaction entry's id in the session file (what `/uncompact` and `/session` name). */
      compactionId: string;
      record: CompactionRecord;
      /** The request's size before and after, as the provider counts it (see `Agent.contextTokens`). */
      tokensBefore: number;
      tokensAfter: number;
      durationMs: number;
      /** The summary was the one prepared ahead (config `prepare_compaction_at`): no summary request now. */
      prepared?: true;
      /** From the overflow error that triggered it, when the provider stated them. */
      requestTokens?: number;
      contextWindow?: number;
    }
  | {
      type: "compaction-failed";
      trigger: CompactionTrigger;
      code: ErrorCode;
      message: string;
      attempts: CompactionAttemptReport[];
      durationMs: number;
    }
  | { type: "compaction-skipped"; trigger: CompactionTrigger; reason: string }
  /**
   * A compaction summary was prepared ahead (config `prepare_compaction_at`), for the first
   * `turnsSummarised` turns of the context; the next overflow (or a `/compact` of the same turns)
   * applies it without a summary request.
   */
  | {
      type: "compaction-prepared";
      model: string;
      turnsSummarised: number;
      tokensSummarised: number;
      summaryTokens: number;
      durationMs: number;
      /** Written because the prompt cache went cold (`compact_when_cold`): the next request applies it. */
      coldCache?: true;
    }
  /** `/compact --preview`: the plan, with no model call and nothing written. */
  | { type: "compaction-preview"; preview: CompactionPreview; tokensBefore: number }
  /** `/uncompact`: the compaction `compactionId` no longer applies. */
  | {
      type: "compaction-undone";
      compactionId: string;
      trigger: CompactionTrigger;
      tokensBefore: number;
      tokensAfter: number;
      /** Whether an earlier compaction is now in effect (another /uncompact would undo it). */
      earlierCompaction: boolean;
    }
  | { type: "pinned"; number: number; text: string; pins: string[] }
  | { type: "unpinned"; number: number; text: string; pins: string[] }
  /** `/summary edit` stored the user's text as a new compaction entry (trigger "edited"). */
  | {
      type: "summary-edited";
      compactionId: string;
      summaryTokens: number;
      tokensBefore: number;
      tokensAfter: number;
    }
  /**
   * Old tool results left the context before a request (a clearing entry `clearingId`): each named
   * result holds a one-line stub; the file keeps the output and `recall {"tool_result": ID}` reads it.
   */
  | {
      type: "context-cleared";
      clearingId: string;
      /** "trigger": the reported prompt passed `clearing.trigger_tokens`; "cold-cache": the prompt cache had expired. */
      reason: "trigger" | "cold-cache";
      toolCallIds: string[];
      tokensBefore: number;
      tokensAfter: number;
    }
  /** `/unclear`: the clearing `clearingId` was taken back; its results are whole again. */
  | {
      type: "clearing-undone";
      clearingId: string;
      toolCallIds: string[];
      tokensBefore: number;
      tokensAfter: number;
    }
  /** The failed request is being sent once more, against the compacted context. */
  | { type: "overflow-retry" }
  /** One hook command ran (config "hooks"). */
  | { type: "hook"; run: HookRun }
  /**
   * `code` marks warnings a script may act on: "empty_answer" (no text and no tool call),
   * "prompt_truncated" (the server reported a prompt far smaller than what was sent).
   */
  | { type: "warning"; message: string; code?: "empty_answer" | "prompt_truncated" };
