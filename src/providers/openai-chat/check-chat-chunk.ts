import {
  array,
  checkShape,
  count as countShape,
  index,
  nullish,
  object,
  optional,
  record,
  string,
  union,
} from "../shared/wire-shape.js";
import type { ChatChunk } from "./chat-chunk.js";

const count = nullish(countShape);
const text = nullish(string());

/** Mistral-style content parts: text, or thinking that is text or parts again. */
const part = object({
  type: optional(string()),
  text,
  thinking: nullish(union(string(), array(object({ text })))),
});

const delta = nullish(
  object({
    content: nullish(union(string(), array(part))),
    reasoning_content: text,
    reasoning: text,
    tool_calls: nullish(
      array(
        object({
          index: optional(index),
          id: text,
          function: nullish(object({ name: text, arguments: nullish(union(string(), record)) })),
        }),
      ),
    ),
  }),
);

const chunkShape = object({
  choices: nullish(array(object({ delta, message: delta, finish_reason: text }))),
  usage: nullish(
    object({
      prompt_tokens: count,
      completion_tokens: count,
      prompt_tokens_details: nullish(object({ cached_tokens: count, cache_write_tokens: count })),
      completion_tokens_details: nullish(object({ reasoning_tokens: count })),
      prompt_cache_hit_tokens: count,
    }),
  ),
});

/**
 * Checks one chat chunk (streamed, or made from a whole completion) before the accumulator trusts
 * its fields: the shapes compatible servers send vary, but each field has one type when present.
 */
export function checkChatChunk(chunk: unknown, provider: string): ChatChunk {
  return checkShape<ChatChunk>(chunkShape, chunk, provider, "chunk");
}
