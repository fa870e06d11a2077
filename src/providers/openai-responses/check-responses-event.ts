import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import {
  array,
  checkShape,
  count as countShape,
  index,
  literal,
  nullish,
  object,
  optional,
  string,
  stringNotIn,
  union,
  type WireShape,
} from "../shared/wire-shape.js";

const count = nullish(countShape);
const text = nullish(string());

const READ_ITEMS = new Set(["function_call", "reasoning", "message"]);
/** The output items the reader takes apart; other item types pass unread. */
const item = union(
  object({ type: literal("function_call"), call_id: string(), name: string(), arguments: text }),
  object({
    type: literal("reasoning"),
    id: optional(string()),
    summary: nullish(array(object({ text: string() }))),
    encrypted_content: text,
  }),
  object({
    type: literal("message"),
    content: nullish(array(object({ type: string(), text, refusal: text }))),
  }),
  object({ type: stringNotIn(READ_ITEMS) }),
);

const response = object({
  output: nullish(array(item)),
  usage: nullish(
    object({
      input_tokens: count,
      output_tokens: count,
      input_tokens_details: nullish(object({ cached_tokens: count, cache_write_tokens: count })),
      output_tokens_details: nullish(object({ reasoning_tokens: count })),
    }),
  ),
  incomplete_details: nullish(object({ reason: text })),
});

const deltaFields = { output_index: index, delta: string() };
const delta = object(deltaFields);

/** What each event type the reader acts on must carry. */
const EVENT_SHAPES = new Map<string, WireShape>(
  Object.entries({
    "response.output_item.added": object({ output_index: index, item }),
    "response.output_item.done": object({ output_index: index, item }),
    "response.output_text.delta": delta,
    "response.refusal.delta": delta,
    "response.reasoning_summary_text.delta": object({ ...deltaFields, summary_index: optional(index) }),
    "response.reasoning_text.delta": object({ ...deltaFields, content_index: optional(index) }),
    "response.function_call_arguments.delta": delta,
    "response.function_call_arguments.done": object({ output_index: index, arguments: optional(string()) }),
    "response.output_text.done": object({ output_index: index, text: optional(string()) }),
    "response.completed": object({ response }),
    "response.incomplete": object({ response }),
    "response.failed": object({ response: object({}) }),
  }),
);

/**
 * Checks one Responses event (streamed, or made from a whole response) before the reader trusts
 * its fields. Event types the reader ignores pass as they are.
 */
export function checkResponsesEvent(event: ResponseStreamEvent, provider: string): ResponseStreamEvent {
  // A Map, not an object: an event typed "constructor" or "__proto__" must find nothing.
  const shape = EVENT_SHAPES.get(event.type);
  return shape === undefined ? event : checkShape(shape, event, provider, `${event.type} event`);
}
