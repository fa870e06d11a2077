import {
  array,
  boolean,
  checkShape,
  count as countShape,
  object,
  optional,
  record,
  string,
} from "../shared/wire-shape.js";
import type { GeminiChunk } from "./gemini-chunk.js";

const count = optional(countShape);
const text = optional(string());

const part = object({
  text,
  thought: optional(boolean),
  thoughtSignature: text,
  functionCall: optional(object({ id: text, name: text, args: optional(record) })),
});

const chunkShape = object({
  usageMetadata: optional(
    object({
      promptTokenCount: count,
      candidatesTokenCount: count,
      thoughtsTokenCount: count,
      cachedContentTokenCount: count,
      toolUsePromptTokenCount: count,
    }),
  ),
  promptFeedback: optional(object({ blockReason: text })),
  candidates: optional(
    array(
      object({
        content: optional(object({ parts: optional(array(part)) })),
        finishReason: text,
      }),
    ),
  ),
});

/**
 * Checks one chunk as payloadChunk picked it from its payload (absent fields are undefined there,
 * never null, as the SDK handed them over) before the reader trusts its fields.
 */
export function checkGeminiChunk(chunk: GeminiChunk, provider: string): GeminiChunk {
  return checkShape<GeminiChunk>(chunkShape, chunk, provider, "chunk");
}
