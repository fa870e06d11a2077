import type { AgentEvent } from "../../agent/index.js";
import type { CompactionPreview } from "../../compaction/index.js";
import { optional, triggerName } from "../../core/index.js";
import type { CommandOutcome } from "../../runtime/command-outcome.js";
import type { JsonEvent } from "./json-event.js";

type EventOf<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

/** `compaction_preview`: the figures of a `compaction` event, minus the summary (and nothing was written). */
export function compactionPreviewEvent(event: {
  preview: CompactionPreview;
  tokensBefore: number;
}): JsonEvent {
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
        trigger: triggerName(event.trigger),
        model: event.model,
        code: event.code,
        message: event.message,
      };
    case "compaction-undone":
      return {
        type: "compaction_undone",
        compaction_id: event.compactionId,
        trigger: triggerName(event.trigger),
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

/**
 * The lines a command's outcome adds before `done`: what `/pin`, `/unpin`, `/uncompact`,
 * `/summary edit` and `/compact --preview` did (with `pins`, the notes in force now), as the events
 * JSON mode has always shown for them; none for other outcomes.
 */
export function outcomeJsonEvents(outcome: CommandOutcome, pins: () => readonly string[]): JsonEvent[] {
  switch (outcome.type) {
    case "pinned":
    case "unpinned":
      return [{ type: outcome.type, number: outcome.number, text: outcome.text, pins: [...pins()] }];
    case "uncompacted":
      return [
        {
          type: "compaction_undone",
          compaction_id: outcome.compaction.id,
          trigger: triggerName(outcome.compaction.trigger),
          tokens_before: outcome.tokensBefore,
          tokens_after: outcome.tokensAfter,
          earlier_compaction: outcome.earlier,
        },
      ];
    case "summary-edited":
      return [
        {
          type: "summary_edited",
          compaction_id: outcome.compactionId,
          summary_tokens: outcome.summaryTokens,
          tokens_before: outcome.tokensBefore,
          tokens_after: outcome.tokensAfter,
        },
      ];
    case "compaction-preview":
      return [compactionPreviewEvent({ preview: outcome.preview, tokensBefore: outcome.contextTokens })];
    default:
      return [];
  }
}
