import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { z } from "zod";
import { checkWire } from "./check-wire.js";

const index = z.number().int().nonnegative();
const count = z.number().nonnegative().nullish();
const text = z.string().nullish();

/** The output items the reader takes apart; other item types pass unread. */
const item = z.union([
  z.looseObject({ type: z.literal("function_call"), call_id: z.string(), name: z.string(), arguments: text }),
  z.looseObject({
    type: z.literal("reasoning"),
    id: z.string().optional(),
    summary: z.array(z.looseObject({ text: z.string() })).nullish(),
    encrypted_content: text,
  }),
  z.looseObject({
    type: z.literal("message"),
    content: z.array(z.looseObject({ type: z.string(), text: text, refusal: text })).nullish(),
  }),
  z.looseObject({ type: z.string().refine((type) => !READ_ITEMS.has(type)) }),
]);
const READ_ITEMS = new Set(["function_call", "reasoning", "message"]);

const response = z.looseObject({
  output: z.array(item).nullish(),
  usage: z
    .looseObject({
      input_tokens: count,
      output_tokens: count,
      input_tokens_details: z.looseObject({ cached_tokens: count, cache_write_tokens: count }).nullish(),
      output_tokens_details: z.looseObject({ reasoning_tokens: count }).nullish(),
    })
    .nullish(),
  incomplete_details: z.looseObject({ reason: text }).nullish(),
});

const delta = z.looseObject({ output_index: index, delta: z.string() });

/** What each event type the reader acts on must carry. */
const EVENT_SCHEMAS = new Map<string, z.ZodType>(
  Object.entries({
    "response.output_item.added": z.looseObject({ output_index: index, item }),
    "response.output_item.done": z.looseObject({ output_index: index, item }),
    "response.output_text.delta": delta,
    "response.refusal.delta": delta,
    "response.reasoning_summary_text.delta": delta.extend({ summary_index: index.optional() }),
    "response.reasoning_text.delta": delta.extend({ content_index: index.optional() }),
    "response.function_call_arguments.delta": delta,
    "response.function_call_arguments.done": z.looseObject({
      output_index: index,
      arguments: z.string().optional(),
    }),
    "response.output_text.done": z.looseObject({ output_index: index, text: z.string().optional() }),
    "response.completed": z.looseObject({ response }),
    "response.incomplete": z.looseObject({ response }),
    "response.failed": z.looseObject({ response: z.looseObject({}) }),
  }),
);

/**
 * Checks one Responses event (streamed, or made from a whole response) before the reader trusts
 * its fields. Event types the reader ignores pass as they are.
 */
export function checkResponsesEvent(event: ResponseStreamEvent, provider: string): ResponseStreamEvent {
  // A Map, not an object: an event typed "constructor" or "__proto__" must find nothing.
  const schema = EVENT_SCHEMAS.get(event.type);
  return schema === undefined ? event : checkWire(schema, event, provider, `${event.type} event`);
}
