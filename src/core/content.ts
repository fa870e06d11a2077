/** Content blocks: the pieces every message is made of. Plain data, JSON-serialisable. */

export interface TextBlock {
  type: "text";
  text: string;
}

/**
 * An image carried inline as base64. In a session file the bytes are not on the line: `file` names
 * the copy in the session's images folder (content-addressed) and `data` is absent until the session
 * layer reads the file back (openSession), so everything above it always sees the bytes.
 */
export interface ImageBlock {
  type: "image";
  /** e.g. "image/png" */
  mediaType: string;
  /** base64 without a data: prefix */
  data: string;
  /** Where the image came from (the file name the user gave), for placeholders; absent when unknown. */
  name?: string;
  /** `<sha256 of the bytes>.<ext>` in the session's images folder, once stored there. */
  file?: string;
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
