import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AssistantMessage, type ModelClient, PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import { createOpenAIChatClient } from "../../src/providers/openai-chat/index.js";
import { createOpenAIResponsesClient } from "../../src/providers/openai-responses/index.js";

/**
 * Answers the fuzzer found breaking the adapters' readers (their minimised inputs are in
 * fuzz/corpus/): each is served verbatim as a 200 body over real HTTP. A malformed one must fail
 * as a PantoError that says so and names the event and field, never as a TypeError, and what the
 * adapter returns must be a well-formed message.
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

function ask(create: Create, answer: string): Promise<AssistantMessage> {
  body = answer;
  const client = create({ provider: "p", model: "m", apiKey: "k", baseURL: url, retry: { maxRetries: 0 } });
  return client.stream({
    systemPrompt: "s",
    context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
    tools: [],
  });
}

async function failure(create: Create, answer: string): Promise<PantoError> {
  const error = await ask(create, answer).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PantoError);
  return error as PantoError;
}

function sse(...events: string[]): string {
  return events.map((data) => `data:${data}\n\n`).join("");
}

describe("the Anthropic adapter on malformed streams", () => {
  it.each([
    [
      "a message_start without its message",
      sse('{"type":"message_start"}'),
      /message_start event at message/,
    ],
    ["an event that is JSON null", sse("null"), /not a JSON object/],
    [
      "a content_block_start without a block",
      sse('{"type":"content_block_start","index":0}'),
      /content_block/,
    ],
    [
      "a delta without its delta",
      sse('{"type":"content_block_delta","index":0}'),
      /content_block_delta event at delta/,
    ],
    ["a message_delta without its delta", sse('{"type":"message_delta"}'), /message_delta event at delta/],
    [
      "a tool_use block with an empty id",
      sse(
        '{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"","name":"bash"}}',
      ),
      /content_block_start event at content_block/,
    ],
    ["an event that is not JSON", sse("{oops"), /not JSON: \{oops/],
  ])("fails %s as a malformed answer", async (_name, answer, detail) => {
    const error = await failure(createAnthropicClient, answer);
    expect(error.code).toBe("other");
    expect(error.message).toMatch(/^p: the server's answer is malformed: /);
    expect(error.message).toMatch(detail);
  });

  it("still reads a well-formed stream with block and event types it does not read (constructor, __proto__ among them)", async () => {
    const answer = await ask(
      createAnthropicClient,
      sse(
        '{"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}',
        '{"type":"constructor"}',
        '{"type":"__proto__"}',
        '{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s"}}',
        '{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"hi"}}',
        '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}',
        '{"type":"message_stop"}',
      ),
    );
    expect(answer.content).toEqual([{ type: "text", text: "hi" }]);
    expect(answer.usage?.outputTokens).toBe(2);
  });
});

describe("the Chat Completions adapter on malformed streams", () => {
  it.each([
    [
      "tool_calls that are not a list",
      sse('{"choices":[{"delta":{"tool_calls":true}}]}'),
      /chunk at choices.0.delta.tool_calls/,
    ],
    [
      "a content part that is null",
      sse('{"choices":[{"delta":{"content":[null]}}]}'),
      /chunk at choices.0.delta.content/,
    ],
    [
      "a negative token count",
      sse('{"choices":[],"usage":{"prompt_tokens":-1,"completion_tokens":1}}'),
      /usage.prompt_tokens/,
    ],
    ["a chunk that is JSON null", sse("null"), /a chunk that is not a JSON object/],
  ])("fails %s as a malformed answer", async (_name, answer, detail) => {
    const error = await failure(createOpenAIChatClient, answer);
    expect(error.code).toBe("other");
    expect(error.message).toMatch(detail);
  });

  it("gives a tool call without an id or with a repeated one an id of its own", async () => {
    const answer = await ask(
      createOpenAIChatClient,
      sse(
        '{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}',
        '{"choices":[{"delta":{"tool_calls":[{"index":1,"id":"c1","function":{"name":"ls","arguments":"{}"}}]}}]}',
        '{"choices":[{"delta":{"tool_calls":[{"index":2,"id":"c1","function":{"name":"ls","arguments":"{}"}}]}}]}',
        '{"choices":[{"delta":{},"finish_reason":"tool_calls"}]}',
      ),
    );
    const ids = answer.content.flatMap((block) => (block.type === "tool-call" ? [block.id] : []));
    expect(ids).toHaveLength(3);
    expect(ids[1]).toBe("c1");
    expect(new Set(ids).size).toBe(3);
    expect(ids.every((id) => id !== "")).toBe(true);
  });
});

describe("the Gemini adapter on malformed streams", () => {
  it.each([
    [
      "parts that are a number",
      sse('{"candidates":[{"content":{"parts":1.5}}]}'),
      /chunk at candidates.0.content.parts/,
    ],
    [
      "a negative token count",
      sse('{"usageMetadata":{"promptTokenCount":-1}}'),
      /usageMetadata.promptTokenCount/,
    ],
  ])("fails %s as a malformed answer", async (_name, answer, detail) => {
    const error = await failure(createGeminiClient, answer);
    expect(error.code).toBe("other");
    expect(error.message).toMatch(detail);
  });

  it("gives a function call with an empty id one of its own", async () => {
    const answer = await ask(
      createGeminiClient,
      sse(
        '{"candidates":[{"content":{"parts":[{"functionCall":{"id":"","name":"ls","args":{}}}]},"finishReason":"STOP"}]}',
      ),
    );
    const [call] = answer.content;
    expect(call?.type === "tool-call" && call.id !== "").toBe(true);
  });
});

describe("the Responses adapter on malformed streams", () => {
  it("fails an event that is JSON null as a malformed answer", async () => {
    const error = await failure(createOpenAIResponsesClient, sse("null"));
    expect(error.message).toMatch(/malformed/);
  });
});
