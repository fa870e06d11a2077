import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAnthropicEvent } from "../../src/providers/anthropic/check-anthropic-event.js";
import { checkGeminiChunk } from "../../src/providers/google-gemini/check-gemini-chunk.js";
import { checkChatChunk } from "../../src/providers/openai-chat/check-chat-chunk.js";
import { checkResponsesEvent } from "../../src/providers/openai-responses/check-responses-event.js";
import { checkAnthropicEvent as zodAnthropic } from "../support/zod-wire/anthropic.js";
import { checkChatChunk as zodChat } from "../support/zod-wire/chat.js";
import { checkGeminiChunk as zodGemini } from "../support/zod-wire/gemini.js";
import { checkResponsesEvent as zodResponses } from "../support/zod-wire/responses.js";

/**
 * The adapters' hand-written stream checks against the zod schemas they replaced (kept verbatim in
 * test/support/zod-wire/): on well-formed events from every branch of each schema, and on those
 * events with fields removed, replaced by values of every JSON type, bounds crossed and union
 * branches mixed, both must accept the same events and reject the others with the same message.
 */
type Check = (event: never, provider: string) => unknown;

const text = { type: "text", text: "hi" };
const SEEDS: Record<string, { ours: Check; zod: Check; seeds: unknown[] }> = {
  anthropic: {
    ours: checkAnthropicEvent,
    zod: zodAnthropic,
    seeds: [
      {
        type: "message_start",
        message: {
          usage: {
            input_tokens: 5,
            output_tokens: 0,
            cache_creation_input_tokens: null,
            cache_read_input_tokens: 2,
            output_tokens_details: { thinking_tokens: 1 },
          },
        },
      },
      { type: "content_block_start", index: 0, content_block: text },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "thinking", thinking: "", signature: "s" },
      },
      { type: "content_block_start", index: 2, content_block: { type: "redacted_thinking", data: "d" } },
      {
        type: "content_block_start",
        index: 3,
        content_block: { type: "tool_use", id: "t1", name: "bash", input: {} },
      },
      { type: "content_block_start", index: 4, content_block: { type: "server_tool_use", id: "s" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } },
      { type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "x" } },
      { type: "content_block_delta", index: 1, delta: { type: "signature_delta", signature: "x" } },
      { type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: "{" } },
      { type: "content_block_delta", index: 3, delta: { type: "citations_delta" } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
      { type: "message_stop" },
      { type: "ping" },
    ],
  },
  chat: {
    ours: checkChatChunk,
    zod: zodChat,
    seeds: [
      {
        choices: [{ delta: { content: "hi", reasoning_content: "r", reasoning: null }, finish_reason: null }],
      },
      {
        choices: [
          {
            delta: {
              content: [
                { type: "text", text: "a" },
                { type: "thinking", thinking: [{ text: "t" }] },
                { type: "thinking", thinking: "t" },
              ],
            },
          },
        ],
      },
      {
        choices: [
          {
            delta: {
              tool_calls: [
                { index: 0, id: "c", function: { name: "ls", arguments: "{}" } },
                { index: 1, function: { arguments: { path: "." } } },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
      },
      { choices: [{ message: { content: "whole" }, finish_reason: "stop" }] },
      {
        choices: [],
        usage: {
          prompt_tokens: 3,
          completion_tokens: 1,
          prompt_tokens_details: { cached_tokens: 1, cache_write_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0 },
          prompt_cache_hit_tokens: 1,
        },
      },
    ],
  },
  gemini: {
    ours: checkGeminiChunk,
    zod: zodGemini,
    seeds: [
      {
        candidates: [
          {
            content: {
              parts: [
                { text: "t", thought: true, thoughtSignature: "s" },
                { text: "hi" },
                { functionCall: { id: "f", name: "ls", args: { path: "." } } },
              ],
            },
            finishReason: "STOP",
          },
        ],
        usageMetadata: {
          promptTokenCount: 3,
          candidatesTokenCount: 1,
          thoughtsTokenCount: 0,
          cachedContentTokenCount: 0,
          toolUsePromptTokenCount: 0,
        },
      },
      { promptFeedback: { blockReason: "SAFETY" } },
    ],
  },
  responses: {
    ours: checkResponsesEvent,
    zod: zodResponses,
    seeds: [
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "function_call", call_id: "c", name: "ls", arguments: "" },
      },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: { type: "reasoning", id: "r", summary: [{ text: "s" }], encrypted_content: null },
      },
      {
        type: "response.output_item.done",
        output_index: 2,
        item: { type: "message", content: [{ type: "output_text", text: "hi", refusal: null }] },
      },
      { type: "response.output_item.added", output_index: 3, item: { type: "web_search_call" } },
      { type: "response.output_text.delta", output_index: 0, delta: "x" },
      { type: "response.refusal.delta", output_index: 0, delta: "x" },
      { type: "response.reasoning_summary_text.delta", output_index: 0, delta: "x", summary_index: 0 },
      { type: "response.reasoning_text.delta", output_index: 0, delta: "x", content_index: 0 },
      { type: "response.function_call_arguments.delta", output_index: 0, delta: "{" },
      { type: "response.function_call_arguments.done", output_index: 0, arguments: "{}" },
      { type: "response.output_text.done", output_index: 0, text: "hi" },
      {
        type: "response.completed",
        response: {
          output: [{ type: "message", content: [] }],
          usage: {
            input_tokens: 1,
            output_tokens: 1,
            input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          },
          incomplete_details: null,
        },
      },
      { type: "response.incomplete", response: { incomplete_details: { reason: "max_output_tokens" } } },
      { type: "response.failed", response: { error: { message: "x" } } },
    ],
  },
};

/** Values of every JSON type, at and across the schemas' bounds, and each union's tags. */
const VALUES: unknown[] = [
  undefined,
  null,
  0,
  -1,
  1.5,
  -0.5,
  2 ** 60,
  -(2 ** 60),
  Number.NaN,
  Number.POSITIVE_INFINITY,
  "",
  "x",
  true,
  [],
  [null],
  [{}],
  [""],
  {},
  ...[
    "text",
    "thinking",
    "redacted_thinking",
    "tool_use",
    "text_delta",
    "thinking_delta",
    "signature_delta",
    "input_json_delta",
    "function_call",
    "reasoning",
    "message",
  ],
  { type: "text" },
  { type: "tool_use", id: "", name: "" },
  { type: "message", content: [1] },
  { text: 1 },
];

type Json = Record<string | number, unknown>;

/** Every place in `value` a mutation can touch: each existing key, and each known key of each object. */
function places(
  value: unknown,
  keys: readonly string[],
  at: Array<string | number> = [],
): Array<Array<string | number>> {
  if (value === null || typeof value !== "object") return [];
  const own = Array.isArray(value)
    ? value.map((_, position) => position)
    : [...new Set([...Object.keys(value), ...keys])];
  return own.flatMap((key) => [[...at, key], ...places((value as Json)[key], keys, [...at, key])]);
}

function keysOf(value: unknown): string[] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap(keysOf);
  return Object.entries(value).flatMap(([key, inner]) => [key, ...keysOf(inner)]);
}

function mutate(
  seed: unknown,
  edits: ReadonlyArray<{ place: number; value: unknown }>,
  keys: readonly string[],
): unknown {
  const event = structuredClone(seed);
  for (const edit of edits) {
    const all = places(event, keys);
    const path = all[edit.place % all.length];
    if (path === undefined) continue;
    let parent = event as Json;
    for (const key of path.slice(0, -1)) parent = parent[key] as Json;
    const last = path.at(-1) as string | number;
    if (edit.value === undefined && !Array.isArray(parent)) delete parent[last];
    else parent[last] = structuredClone(edit.value);
  }
  return event;
}

function verdict(check: Check, event: unknown): string {
  try {
    check(event as never, "p");
    return "accepted";
  } catch (error) {
    return (error as Error).message;
  }
}

describe("the hand-written stream checks against the zod schemas they replaced", () => {
  it.each(Object.keys(SEEDS))("%s: accepts every seed event", (adapter) => {
    const { ours, seeds } = SEEDS[adapter] as (typeof SEEDS)[string];
    for (const seed of seeds) expect(verdict(ours, seed)).toBe("accepted");
  });

  it.each(Object.keys(SEEDS))("%s: agrees with zod, message for message, on mutated events", (adapter) => {
    const { ours, zod, seeds } = SEEDS[adapter] as (typeof SEEDS)[string];
    const keys = [...new Set(seeds.flatMap(keysOf))].filter((key) => key !== "type");
    const edit = fc.record({
      place: fc.nat(),
      value: fc.oneof(fc.constantFrom(...VALUES), fc.jsonValue({ maxDepth: 2 })),
    });
    let rejected = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...seeds),
        fc.array(edit, { minLength: 1, maxLength: 3 }),
        (seed, edits) => {
          const event = mutate(seed, edits, keys);
          if (event === null || typeof event !== "object" || Array.isArray(event)) return;
          const expected = verdict(zod, event);
          if (expected !== "accepted") rejected++;
          expect(verdict(ours, event)).toBe(expected);
        },
      ),
      { numRuns: 3000, seed: 36 },
    );
    // The generator must reach rejections, or the agreement says little.
    expect(rejected).toBeGreaterThan(200);
  });
});
