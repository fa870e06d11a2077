import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";

/**
 * Answers a fuzzer found breaking the readers (their minimised inputs are in fuzz/corpus/): each is
 * served verbatim as a 200 body over real HTTP, and the adapter must fail with a PantoError that
 * says the answer is malformed, naming the event and field, rather than a TypeError.
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

async function failure(
  create: (options: AdapterOptions) => ReturnType<typeof createAnthropicClient>,
  answer: string,
): Promise<PantoError> {
  body = answer;
  const client = create({ provider: "p", model: "m", apiKey: "k", baseURL: url, retry: { maxRetries: 0 } });
  const request = {
    model: "m",
    systemPrompt: "s",
    context: { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] },
    tools: [],
  };
  const error = await client.stream(request).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PantoError);
  return error as PantoError;
}

describe("the Anthropic adapter on malformed streams", () => {
  it.each([
    [
      "a message_start without its message",
      'data:{"type":"message_start"}\n\n',
      /message_start event at message/,
    ],
    ["an event that is JSON null", "data:null\n\n", /not a JSON object/],
    [
      "a content_block_start without a block",
      'data:{"type":"content_block_start","index":0}\n\n',
      /content_block_start event at index|content_block/,
    ],
    [
      "a delta without its delta",
      'data:{"type":"content_block_delta","index":0}\n\n',
      /content_block_delta event at delta/,
    ],
    [
      "a message_delta without its delta",
      'data:{"type":"message_delta"}\n\n',
      /message_delta event at delta/,
    ],
    [
      "a tool_use block with an empty id",
      'data:{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"","name":"bash","input":{}}}\n\ndata:{"type":"message_stop"}\n\n',
      /content_block_start event at content_block/,
    ],
    ["an event that is not JSON", "data:{oops\n\n", /not JSON: \{oops/],
  ])("fails %s as a malformed answer", async (_name, answer, detail) => {
    const error = await failure(createAnthropicClient, answer);
    expect(error.code).toBe("other");
    expect(error.message).toMatch(/^p: the server's answer is malformed: /);
    expect(error.message).toMatch(detail);
  });

  it("still reads a well-formed stream with an unknown block type in it", async () => {
    body = [
      'data:{"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}',
      'data:{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s"}}',
      'data:{"type":"content_block_start","index":1,"content_block":{"type":"text","text":"hi"}}',
      'data:{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}',
      'data:{"type":"message_stop"}',
    ].join("\n\n");
    const client = createAnthropicClient({
      provider: "p",
      model: "m",
      apiKey: "k",
      baseURL: url,
      retry: { maxRetries: 0 },
    });
    const answer = await client.stream({
      model: "m",
      systemPrompt: "s",
      context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
      tools: [],
    });
    expect(answer.content).toEqual([{ type: "text", text: "hi" }]);
    expect(answer.usage?.outputTokens).toBe(2);
  });
});
