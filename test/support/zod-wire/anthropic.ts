import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { z } from "zod";
import { checkWire } from "./check-wire.js";

const count = z.number().nonnegative().nullish();
const usage = z
  .looseObject({
    input_tokens: count,
    output_tokens: count,
    cache_creation_input_tokens: count,
    cache_read_input_tokens: count,
    cache_creation: z.looseObject({ ephemeral_1h_input_tokens: count }).nullish(),
    output_tokens_details: z.looseObject({ thinking_tokens: count }).nullish(),
  })
  .nullish();
const index = z.number().int().nonnegative();

/** The blocks panto reads; other block types (server tools) pass unread. */
const contentBlock = z.union([
  z.looseObject({ type: z.literal("text"), text: z.string() }),
  z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
  z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() }),
  z.looseObject({ type: z.literal("tool_use"), id: z.string().min(1), name: z.string().min(1) }),
  z.looseObject({ type: z.string().refine((type) => !READ_BLOCKS.has(type)) }),
]);
const READ_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use"]);

const delta = z.union([
  z.looseObject({ type: z.literal("text_delta"), text: z.string() }),
  z.looseObject({ type: z.literal("thinking_delta"), thinking: z.string() }),
  z.looseObject({ type: z.literal("signature_delta"), signature: z.string() }),
  z.looseObject({ type: z.literal("input_json_delta"), partial_json: z.string() }),
  z.looseObject({ type: z.string().refine((type) => !READ_DELTAS.has(type)) }),
]);
const READ_DELTAS = new Set(["text_delta", "thinking_delta", "signature_delta", "input_json_delta"]);

/** What each event type the reader acts on must carry. */
const EVENT_SCHEMAS = new Map<string, z.ZodType>(
  Object.entries({
    message_start: z.looseObject({ message: z.looseObject({ usage }) }),
    content_block_start: z.looseObject({ index, content_block: contentBlock }),
    content_block_delta: z.looseObject({ index, delta }),
    content_block_stop: z.looseObject({ index }),
    message_delta: z.looseObject({ delta: z.looseObject({ stop_reason: z.string().nullish() }), usage }),
  }),
);

/**
 * Checks one Messages event (streamed, or made from a whole message) before the reader trusts its
 * fields: the reader is written against the SDK's types, which nothing on the wire enforces.
 * Event types the reader ignores (ping, unknown ones) pass as they are.
 */
export function checkAnthropicEvent(event: RawMessageStreamEvent, provider: string): RawMessageStreamEvent {
  // A Map, not an object: an event typed "constructor" or "__proto__" must find nothing.
  const schema = EVENT_SCHEMAS.get(event.type);
  return schema === undefined ? event : checkWire(schema, event, provider, `${event.type} event`);
}
