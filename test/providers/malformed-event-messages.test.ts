import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ModelClient, PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import { createOpenAIChatClient } from "../../src/providers/openai-chat/index.js";
import { createOpenAIResponsesClient } from "../../src/providers/openai-responses/index.js";

/**
 * The exact error each adapter gives a malformed stream event, served over real HTTP. The messages
 * were captured from the adapters when they checked every event with zod; the hand-written shape
 * checks that replaced zod on the stream's path must keep them word for word (which field, at which
 * path, and what was wrong with it), so a user's bug report reads the same as before.
 */
let server: Server;
let body = "";
let url = "";

beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Create = (options: AdapterOptions) => ModelClient;

async function failureMessage(create: Create, events: readonly unknown[]): Promise<string> {
  body = events.map((event) => `data:${JSON.stringify(event)}\n\n`).join("");
  const client = create({ provider: "p", model: "m", apiKey: "k", baseURL: url, retry: { maxRetries: 0 } });
  const error = await client
    .stream({
      systemPrompt: "s",
      context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      tools: [],
    })
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  expect(error).toBeInstanceOf(PantoError);
  expect((error as PantoError).code).toBe("other");
  return (error as Error).message;
}

const MALFORMED = "p: the server's answer is malformed: ";

describe("the Anthropic adapter: a malformed event's error, word for word", () => {
  it.each<[string, unknown[], string]>([
    [
      "a message_start without its message",
      [{ type: "message_start" }],
      "message_start event at message: Invalid input: expected object, received undefined",
    ],
    [
      "a message_start whose message is null",
      [{ type: "message_start", message: null }],
      "message_start event at message: Invalid input: expected object, received null",
    ],
    [
      "a negative input token count",
      [{ type: "message_start", message: { usage: { input_tokens: -1 } } }],
      "message_start event at message.usage.input_tokens: Too small: expected number to be >=0",
    ],
    [
      "a token count that is a string",
      [{ type: "message_start", message: { usage: { cache_read_input_tokens: "7" } } }],
      "message_start event at message.usage.cache_read_input_tokens: Invalid input: expected number, received string",
    ],
    [
      "thinking tokens that are an object",
      [{ type: "message_start", message: { usage: { output_tokens_details: { thinking_tokens: {} } } } }],
      "message_start event at message.usage.output_tokens_details.thinking_tokens: Invalid input: expected number, received object",
    ],
    [
      "a fractional block index",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 1.5, content_block: { type: "text", text: "x" } },
      ],
      "content_block_start event at index: Invalid input: expected int, received number",
    ],
    [
      "a negative block index",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: -1, content_block: { type: "text", text: "x" } },
      ],
      "content_block_start event at index: Too small: expected number to be >=0",
    ],
    [
      "a block index past the safe integers",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        {
          type: "content_block_start",
          index: 1152921504606847000,
          content_block: { type: "text", text: "x" },
        },
      ],
      "content_block_start event at index: Too big: expected int to be <=9007199254740991",
    ],
    [
      "a block index that is a string",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: "0", content_block: { type: "text", text: "x" } },
      ],
      "content_block_start event at index: Invalid input: expected number, received string",
    ],
    [
      "a text block without its text",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "text" } },
      ],
      "content_block_start event at content_block.type: Invalid input",
    ],
    [
      "a thinking block without its signature",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "t" } },
      ],
      "content_block_start event at content_block.type: Invalid input",
    ],
    [
      "a tool_use block with an empty id",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "", name: "bash" } },
      ],
      "content_block_start event at content_block: Invalid input",
    ],
    [
      "a tool_use block with an empty id and a numeric name",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "", name: 3 } },
      ],
      "content_block_start event at content_block.type: Invalid input",
    ],
    [
      "a block whose type is a number",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: { type: 5 } },
      ],
      "content_block_start event at content_block: Invalid input",
    ],
    [
      "a block that is a list",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0, content_block: [] },
      ],
      "content_block_start event at content_block: Invalid input",
    ],
    [
      "a content_block_start without a block",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_start", index: 0 },
      ],
      "content_block_start event at content_block: Invalid input",
    ],
    [
      "a text delta whose text is a number",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: 3 } },
      ],
      "content_block_delta event at delta.type: Invalid input",
    ],
    [
      "an input_json_delta without its JSON",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta" } },
      ],
      "content_block_delta event at delta.type: Invalid input",
    ],
    [
      "a delta without a type",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_delta", index: 0, delta: {} },
      ],
      "content_block_delta event at delta: Invalid input",
    ],
    [
      "a content_block_stop without an index",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "content_block_stop" },
      ],
      "content_block_stop event at index: Invalid input: expected number, received undefined",
    ],
    [
      "a stop reason that is a number",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "message_delta", delta: { stop_reason: 3 }, usage: null },
      ],
      "message_delta event at delta.stop_reason: Invalid input: expected string, received number",
    ],
    [
      "a message_delta without its delta",
      [
        { type: "message_start", message: { usage: { input_tokens: 1, output_tokens: 1 } } },
        { type: "message_delta", usage: { output_tokens: 1 } },
      ],
      "message_delta event at delta: Invalid input: expected object, received undefined",
    ],
  ])("%s", async (_name, events, expected) => {
    expect(await failureMessage(createAnthropicClient, events)).toBe(MALFORMED + expected);
  });
});

describe("the Chat Completions adapter: a malformed event's error, word for word", () => {
  it.each<[string, unknown[], string]>([
    [
      "tool_calls that are not a list",
      [{ choices: [{ delta: { tool_calls: true } }] }],
      "chunk at choices.0.delta.tool_calls: Invalid input: expected array, received boolean",
    ],
    [
      "a content part that is null",
      [{ choices: [{ delta: { content: [null] } }] }],
      "chunk at choices.0.delta.content: Invalid input",
    ],
    [
      "content that is a number",
      [{ choices: [{ delta: { content: 5 } }] }],
      "chunk at choices.0.delta.content: Invalid input",
    ],
    [
      "a part whose thinking is a number",
      [{ choices: [{ delta: { content: [{ type: "thinking", thinking: 4 }] } }] }],
      "chunk at choices.0.delta.content: Invalid input",
    ],
    [
      "a part whose text is a number",
      [{ choices: [{ delta: { content: [{ type: "text", text: 4 }] } }] }],
      "chunk at choices.0.delta.content: Invalid input",
    ],
    [
      "reasoning_content that is a list",
      [{ choices: [{ delta: { reasoning_content: [] } }] }],
      "chunk at choices.0.delta.reasoning_content: Invalid input: expected string, received array",
    ],
    [
      "a fractional tool call index",
      [{ choices: [{ delta: { tool_calls: [{ index: 0.5, id: "c" }] } }] }],
      "chunk at choices.0.delta.tool_calls.0.index: Invalid input: expected int, received number",
    ],
    [
      "a tool call id that is a number",
      [{ choices: [{ delta: { tool_calls: [{ index: 0, id: 7 }] } }] }],
      "chunk at choices.0.delta.tool_calls.0.id: Invalid input: expected string, received number",
    ],
    [
      "arguments that are a list",
      [{ choices: [{ delta: { tool_calls: [{ index: 0, function: { name: "ls", arguments: [] } }] } }] }],
      "chunk at choices.0.delta.tool_calls.0.function.arguments: Invalid input",
    ],
    [
      "a finish_reason that is a number",
      [{ choices: [{ delta: {}, finish_reason: 1 }] }],
      "chunk at choices.0.finish_reason: Invalid input: expected string, received number",
    ],
    [
      "choices that are an object",
      [{ choices: {} }],
      "chunk at choices: Invalid input: expected array, received object",
    ],
    [
      "a choice that is a string",
      [{ choices: ["x"] }],
      "chunk at choices.0: Invalid input: expected object, received string",
    ],
    [
      "a negative token count",
      [{ choices: [], usage: { prompt_tokens: -1, completion_tokens: 1 } }],
      "chunk at usage.prompt_tokens: Too small: expected number to be >=0",
    ],
    [
      "cached tokens that are a string",
      [{ choices: [], usage: { prompt_tokens_details: { cached_tokens: "3" } } }],
      "chunk at usage.prompt_tokens_details.cached_tokens: Invalid input: expected number, received string",
    ],
    [
      "usage that is a number",
      [{ choices: [], usage: 5 }],
      "chunk at usage: Invalid input: expected object, received number",
    ],
  ])("%s", async (_name, events, expected) => {
    expect(await failureMessage(createOpenAIChatClient, events)).toBe(MALFORMED + expected);
  });
});

describe("the Gemini adapter: a malformed event's error, word for word", () => {
  it.each<[string, unknown[], string]>([
    [
      "parts that are a number",
      [{ candidates: [{ content: { parts: 1.5 } }] }],
      "chunk at candidates.0.content.parts: Invalid input: expected array, received number",
    ],
    [
      "a part whose text is a number",
      [{ candidates: [{ content: { parts: [{ text: 1 }] } }] }],
      "chunk at candidates.0.content.parts.0.text: Invalid input: expected string, received number",
    ],
    [
      "a thought flag that is a string",
      [{ candidates: [{ content: { parts: [{ text: "t", thought: "yes" }] } }] }],
      "chunk at candidates.0.content.parts.0.thought: Invalid input: expected boolean, received string",
    ],
    [
      "a function call whose args are a list",
      [{ candidates: [{ content: { parts: [{ functionCall: { name: "ls", args: [] } }] } }] }],
      "chunk at candidates.0.content.parts.0.functionCall.args: Invalid input: expected record, received array",
    ],
    [
      "a function call name that is a number",
      [{ candidates: [{ content: { parts: [{ functionCall: { name: 5 } }] } }] }],
      "chunk at candidates.0.content.parts.0.functionCall.name: Invalid input: expected string, received number",
    ],
    [
      "a finish reason that is a number",
      [{ candidates: [{ content: { parts: [] }, finishReason: 1 }] }],
      "chunk at candidates.0.finishReason: Invalid input: expected string, received number",
    ],
    [
      "candidates that are an object",
      [{ candidates: {} }],
      "chunk at candidates: Invalid input: expected array, received object",
    ],
    [
      "a negative token count",
      [{ usageMetadata: { promptTokenCount: -1 } }],
      "chunk at usageMetadata.promptTokenCount: Too small: expected number to be >=0",
    ],
    [
      "a token count that is a string",
      [{ usageMetadata: { thoughtsTokenCount: "3" } }],
      "chunk at usageMetadata.thoughtsTokenCount: Invalid input: expected number, received string",
    ],
    [
      "a block reason that is a number",
      [{ promptFeedback: { blockReason: 3 } }],
      "chunk at promptFeedback.blockReason: Invalid input: expected string, received number",
    ],
  ])("%s", async (_name, events, expected) => {
    expect(await failureMessage(createGeminiClient, events)).toBe(MALFORMED + expected);
  });
});

describe("the Responses adapter: a malformed event's error, word for word", () => {
  it.each<[string, unknown[], string]>([
    [
      "an item added without its index",
      [{ type: "response.output_item.added", item: { type: "message", content: [] } }],
      "response.output_item.added event at output_index: Invalid input: expected number, received undefined",
    ],
    [
      "a function call item without a call id",
      [{ type: "response.output_item.added", output_index: 0, item: { type: "function_call", name: "ls" } }],
      "response.output_item.added event at item.type: Invalid input",
    ],
    [
      "a reasoning item whose summary is a string",
      [{ type: "response.output_item.added", output_index: 0, item: { type: "reasoning", summary: "s" } }],
      "response.output_item.added event at item.type: Invalid input",
    ],
    [
      "a message item whose content holds a number",
      [{ type: "response.output_item.done", output_index: 0, item: { type: "message", content: [1] } }],
      "response.output_item.done event at item.type: Invalid input",
    ],
    [
      "an item whose type is a number",
      [{ type: "response.output_item.added", output_index: 0, item: { type: 1 } }],
      "response.output_item.added event at item: Invalid input",
    ],
    [
      "an item without a type",
      [{ type: "response.output_item.added", output_index: 0, item: {} }],
      "response.output_item.added event at item: Invalid input",
    ],
    [
      "a text delta without its delta",
      [{ type: "response.output_text.delta", output_index: 0 }],
      "response.output_text.delta event at delta: Invalid input: expected string, received undefined",
    ],
    [
      "a text delta with a fractional index",
      [{ type: "response.output_text.delta", output_index: 0.5, delta: "x" }],
      "response.output_text.delta event at output_index: Invalid input: expected int, received number",
    ],
    [
      "a summary delta with a negative summary index",
      [{ type: "response.reasoning_summary_text.delta", output_index: 0, delta: "x", summary_index: -1 }],
      "response.reasoning_summary_text.delta event at summary_index: Too small: expected number to be >=0",
    ],
    [
      "arguments done with numeric arguments",
      [{ type: "response.function_call_arguments.done", output_index: 0, arguments: 5 }],
      "response.function_call_arguments.done event at arguments: Invalid input: expected string, received number",
    ],
    [
      "a text done with numeric text",
      [{ type: "response.output_text.done", output_index: 0, text: 5 }],
      "response.output_text.done event at text: Invalid input: expected string, received number",
    ],
    [
      "a completed event without its response",
      [{ type: "response.completed" }],
      "response.completed event at response: Invalid input: expected object, received undefined",
    ],
    [
      "a completed response with a negative count",
      [{ type: "response.completed", response: { output: [], usage: { input_tokens: -2 } } }],
      "response.completed event at response.usage.input_tokens: Too small: expected number to be >=0",
    ],
    [
      "a completed response whose output is a string",
      [{ type: "response.completed", response: { output: "x" } }],
      "response.completed event at response.output: Invalid input: expected array, received string",
    ],
    [
      "an incomplete response whose reason is a number",
      [{ type: "response.incomplete", response: { incomplete_details: { reason: 1 } } }],
      "response.incomplete event at response.incomplete_details.reason: Invalid input: expected string, received number",
    ],
    [
      "a failed event whose response is null",
      [{ type: "response.failed", response: null }],
      "response.failed event at response: Invalid input: expected object, received null",
    ],
  ])("%s", async (_name, events, expected) => {
    expect(await failureMessage(createOpenAIResponsesClient, events)).toBe(MALFORMED + expected);
  });
});
