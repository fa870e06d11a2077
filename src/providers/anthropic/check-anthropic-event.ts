import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import {
  checkShape,
  count as countShape,
  index,
  literal,
  nullish,
  object,
  string,
  stringNotIn,
  union,
  type WireShape,
} from "../shared/wire-shape.js";

const count = nullish(countShape);
const usage = nullish(
  object({
    input_tokens: count,
    output_tokens: count,
    cache_creation_input_tokens: count,
    cache_read_input_tokens: count,
    cache_creation: nullish(object({ ephemeral_1h_input_tokens: count })),
    output_tokens_details: nullish(object({ thinking_tokens: count })),
  }),
);

const READ_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use"]);
/** The blocks panto reads; other block types (server tools) pass unread. */
const contentBlock = union(
  object({ type: literal("text"), text: string() }),
  object({ type: literal("thinking"), thinking: string(), signature: string() }),
  object({ type: literal("redacted_thinking"), data: string() }),
  object({ type: literal("tool_use"), id: string(1), name: string(1) }),
  object({ type: stringNotIn(READ_BLOCKS) }),
);

const READ_DELTAS = new Set(["text_delta", "thinking_delta", "signature_delta", "input_json_delta"]);
const delta = union(
  object({ type: literal("text_delta"), text: string() }),
  object({ type: literal("thinking_delta"), thinking: string() }),
  object({ type: literal("signature_delta"), signature: string() }),
  object({ type: literal("input_json_delta"), partial_json: string() }),
  object({ type: stringNotIn(READ_DELTAS) }),
);

/** What each event type the reader acts on must carry. */
const EVENT_SHAPES = new Map<string, WireShape>(
  Object.entries({
    message_start: object({ message: object({ usage }) }),
    content_block_start: object({ index, content_block: contentBlock }),
    content_block_delta: object({ index, delta }),
    content_block_stop: object({ index }),
    message_delta: object({ delta: object({ stop_reason: nullish(string()) }), usage }),
  }),
);

/**
 * Checks one Messages event (streamed, or made from a whole message) before the reader trusts its
 * fields: the reader is written against the SDK's types, which nothing on the wire enforces.
 * Event types the reader ignores (ping, unknown ones) pass as they are.
 */
export function checkAnthropicEvent(event: RawMessageStreamEvent, provider: string): RawMessageStreamEvent {
  // A Map, not an object: an event typed "constructor" or "__proto__" must find nothing.
  const shape = EVENT_SHAPES.get(event.type);
  return shape === undefined ? event : checkShape(shape, event, provider, `${event.type} event`);
}
