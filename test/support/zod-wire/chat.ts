import { z } from "zod";
import type { ChatChunk } from "../../../src/providers/openai-chat/chat-chunk.js";
import { checkWire } from "./check-wire.js";

const count = z.number().nonnegative().nullish();
const text = z.string().nullish();

/** Mistral-style content parts: text, or thinking that is text or parts again. */
const part = z.looseObject({
  type: z.string().optional(),
  text,
  thinking: z.union([z.string(), z.array(z.looseObject({ text }))]).nullish(),
});

const delta = z
  .looseObject({
    content: z.union([z.string(), z.array(part)]).nullish(),
    reasoning_content: text,
    reasoning: text,
    tool_calls: z
      .array(
        z.looseObject({
          index: z.number().int().nonnegative().optional(),
          id: text,
          function: z
            .looseObject({
              name: text,
              arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
            })
            .nullish(),
        }),
      )
      .nullish(),
  })
  .nullish();

const chunkSchema = z.looseObject({
  choices: z.array(z.looseObject({ delta, message: delta, finish_reason: text })).nullish(),
  usage: z
    .looseObject({
      prompt_tokens: count,
      completion_tokens: count,
      prompt_tokens_details: z.looseObject({ cached_tokens: count, cache_write_tokens: count }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
      prompt_cache_hit_tokens: count,
    })
    .nullish(),
});

/**
 * Checks one chat chunk (streamed, or made from a whole completion) before the accumulator trusts
 * its fields: the shapes compatible servers send vary, but each field has one type when present.
 */
export function checkChatChunk(chunk: unknown, provider: string): ChatChunk {
  return checkWire<ChatChunk>(chunkSchema, chunk, provider, "chunk");
}
