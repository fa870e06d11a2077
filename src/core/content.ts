/** Content blocks: the pieces every message is made of. Plain data, JSON-serialisable. */

export interface TextBlock {
  type: "text";
  text: string;
}

/** An image carried inline as base64. */
export interface ImageBlock {
  type: "image";
  /** e.g. "image/png" */
  mediaType: string;
  /** base64 without a data: prefix */
  data: string;
}

/** Model reasoning. `signature` is the provider's opaque token that must be echoed back verbatim (Anthropic). */
export interface ThinkingBlock {
  type: "thinking";
  text: string;
  signature?: string;
  /** Provider-encrypted reasoning that has no readable text (Anthropic redacted_thinking, OpenAI encrypted_content). */
  redacted?: string;
}

export interface ToolCallBlock {
  type: "tool-call";
  /** Provider-assigned call id; tool results refer to it. */
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ToolResultBlock {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  content: Array<TextBlock | ImageBlock>;
  isError: boolean;
}

/**
 * The first-class compaction block: the summary standing in for every turn before it.
 * It resets the effective context during replay (spec rule 3).
 */
export interface CompactionBlock {
  type: "compaction";
  summary: string;
}

export type ContentBlock =
  | TextBlock
  | ImageBlock
  | ThinkingBlock
  | ToolCallBlock
  | ToolResultBlock
  | CompactionBlock;
