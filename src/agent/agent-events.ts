import type {
  AssistantMessage,
  CompactionRecord,
  ErrorCode,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/index.js";

/** What the agent reports while it works. The CLI renders these as text, or as JSON lines with --json. */
export type AgentEvent =
  | { type: "text-delta"; text: string }
  | { type: "thinking-delta"; text: string }
  /** A complete assistant message, usage included (undefined when the provider reported none). */
  | { type: "assistant-message"; message: AssistantMessage }
  | { type: "tool-call"; call: ToolCallBlock }
  | { type: "tool-result"; result: ToolResultBlock }
  | { type: "retry-wait"; attempt: number; delayMs: number; reason: string }
  | { type: "compaction-started"; trigger: "overflow" | "manual"; model: string }
  /** Characters of summary received so far, for a progress display. */
  | { type: "compaction-progress"; characters: number }
  | { type: "compaction"; record: CompactionRecord; tokensBefore: number; tokensAfter: number }
  | {
      type: "compaction-failed";
      trigger: "overflow" | "manual";
      code: ErrorCode;
      message: string;
      attempts: Array<{ model: string; code: ErrorCode; message: string }>;
    }
  | { type: "compaction-skipped"; trigger: "overflow" | "manual"; reason: string }
  /** The failed request is being sent once more, against the compacted context. */
  | { type: "overflow-retry" }
  /** `code` marks warnings a script may act on: "empty_answer" (no text and no tool call). */
  | { type: "warning"; message: string; code?: "empty_answer" };
