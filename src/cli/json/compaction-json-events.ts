import type { AgentEvent } from "../../agent/index.js";
import type { CompactionPreview } from "../../compaction/index.js";
import { optional } from "../../core/index.js";
import type { JsonEvent } from "./json-event.js";

type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

/** `compaction_preview`: the figures of a `compaction` event, minus the summary (and nothing was written). */
export function compactionPreviewEvent(event: EventOf<"compaction-preview">): JsonEvent {
  const { preview } = event;
  return {
    type: "compaction_preview",
    trigger: "manual",
    model: preview.model,
    ...optional("fallback_model", preview.fallbackModel),
    turns_summarised: preview.turnsSummarised,
    turns_kept: preview.turnsKept,
    tokens_summarised: preview.tokensSummarised,
    tokens_kept: preview.tokensKept,
    tokens_before: event.tokensBefore,
    size_sources: preview.sizeSources,
    request_tokens: preview.requestTokens,
    turns: previewTurns(preview),
    ...optional("instructions", preview.instructions),
    ...optional("nothing_to_summarise", preview.nothingReason),
  };
}

function previewTurns(preview: CompactionPreview): Array<Record<string, unknown>> {
  return preview.turns.map((turn) => ({
    position: turn.position,
    action: turn.action,
    user_text: turn.userText,
    tokens: turn.tokens,
    source: turn.source,
  }));
}

/** The lifecycle events of compaction control that are not a compaction run: undo, pins, edits. */
export function compactionControlEvent(
  event: EventOf<
    "compaction-undone" | "pinned" | "unpinned" | "summary-edited" | "compaction-attempt-failed"
  >,
): JsonEvent {
  switch (event.type) {
    case "compaction-attempt-failed":
      return {
        type: "compaction_attempt_failed",
        trigger: event.trigger,
        model: event.model,
        code: event.code,
        message: event.message,
      };
    case "compaction-undone":
      return {
        type: "compaction_undone",
        compaction_id: event.compactionId,
        trigger: event.trigger,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
        earlier_compaction: event.earlierCompaction,
      };
    case "pinned":
    case "unpinned":
      return { type: event.type, number: event.number, text: event.text, pins: event.pins };
    case "summary-edited":
      return {
        type: "summary_edited",
        compaction_id: event.compactionId,
        summary_tokens: event.summaryTokens,
        tokens_before: event.tokensBefore,
        tokens_after: event.tokensAfter,
      };
  }
}
