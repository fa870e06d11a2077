import { describe, expect, it } from "vitest";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import { createOpenAIResponsesClient } from "../../src/providers/openai-responses/index.js";
import { ResponsesStreamReader } from "../../src/providers/openai-responses/responses-stream-reader.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import {
  adapterHarness,
  failure,
  foreignToolCalls,
  hello,
  parallelReadTurn,
  screenshotTurn,
  user,
} from "../support/adapter-harness.js";
import { adapterFixtures, fixtureReply, servedAs } from "../support/provider-error-fixtures.js";

const FIXTURES = adapterFixtures((entry) => entry.api === "openai-responses");

const { server, start, run } = adapterHarness({
  startServer: startFakeOpenAIResponsesServer,
  createClient: createOpenAIResponsesClient,
  provider: "openai",
  model: "gpt-4.1",
  maxRetries: 3,
  startBeforeEach: false,
});

function inputOf(index: number): Array<Record<string, unknown>> {
  const body = server.requests[index]?.body as { input?: Array<Record<string, unknown>> } | undefined;
  return body?.input ?? [];
}

describe("OpenAI Responses adapter: streaming", () => {
  it("streams reasoning and parallel tool calls, in output order, with parsed arguments", async () => {
    await start();
    server.enqueue({
      type: "tool-calls",
      thinking: "I should read both files at once.",
      calls: [
        { id: "call_a", name: "read", arguments: { path: "a.txt" } },
        { id: "call_b", name: "read", arguments: { path: "b.txt", limit: 5 } },
      ],
    });
    const { message, events } = await run({ model: "gpt-5" });
    const thinking = events.filter((event) => event.type === "thinking-delta").map((event) => event.text);
    expect(thinking.join("")).toBe("I should read both files at once.");
    expect(events.filter((event) => event.type === "tool-call-start")).toEqual([
      { type: "tool-call-start", id: "call_a", name: "read" },
      { type: "tool-call-start", id: "call_b", name: "read" },
    ]);
    expect(
      events.filter((event) => event.type === "tool-call-end").map((event) => event.call.arguments),
    ).toEqual([{ path: "a.txt" }, { path: "b.txt", limit: 5 }]);
    expect(message.stopReason).toBe("tool-use");
    expect(message.content).toEqual([
      {
        type: "thinking",
        text: "I should read both files at once.",
        signature: "rs_0",
        redacted: `enc_${Buffer.from("I should read both files at once.").toString("base64")}`,
      },
      { type: "tool-call", id: "call_a", name: "read", arguments: { path: "a.txt" } },
      { type: "tool-call", id: "call_b", name: "read", arguments: { path: "b.txt", limit: 5 } },
    ]);
  });

  it("asks reasoning models for encrypted reasoning and summaries, and other models for neither", async () => {
    await start();
    await run({ model: "gpt-5-mini" });
    await run({ model: "gpt-4.1" });
    expect(server.requests[0]?.body).toMatchObject({
      include: ["reasoning.encrypted_content"],
      reasoning: { summary: "auto" },
      store: false,
      stream: true,
    });
    expect(server.requests[1]?.body).not.toHaveProperty("include");
    expect(server.requests[1]?.body).not.toHaveProperty("reasoning");
  });
});

describe("OpenAI Responses adapter: usage", () => {
  it("counts cached tokens in the prompt and leaves hidden reasoning out of the re-sent part", async () => {
    await start();
    server.enqueue({
      type: "text",
      text: "ok",
      usage: { input: 100, output: 20, cacheRead: 50, reasoning: 30 },
    });
    const { message } = await run({ model: "o3" });
    expect(message.usage).toEqual({
      promptTokens: 150,
      outputTokens: 50,
      resentOutputTokens: 20,
      cacheReadTokens: 50,
      reasoningTokens: 30,
    });
  });

  it("reports cache writes when the API does", async () => {
    await start();
    server.enqueue({ type: "text", text: "ok", usage: { input: 10, output: 1, cacheWrite: 5 } });
    const { message } = await run();
    expect(message.usage).toMatchObject({ promptTokens: 15, cacheWriteTokens: 5 });
  });
});

describe("OpenAI Responses adapter: fixture errors served for real", () => {
  for (const entry of FIXTURES) {
    it(`classifies ${entry.provider} ${servedAs(entry)}: ${entry.note.slice(0, 60)}`, async () => {
      await start();
      server.enqueue(fixtureReply(entry));
      const error = await failure(run({ retry: { maxRetries: 0 } }));
      expect(error.name).toBe("PantoError");
      if (entry.scored !== false) expect(error.code === "context_overflow").toBe(entry.is_overflow);
      if (entry.expected_code !== undefined) expect(error.code).toBe(entry.expected_code);
      expect(error.status).toBe(entry.status ?? undefined);
    });
  }

  it("recognises the overflow error event as it arrives on the wire, without the client's outer wrapper", async () => {
    await start();
    const wrapped = FIXTURES.find(
      (entry) => entry.status === null && entry.is_overflow && entry.body.includes("sequence_number"),
    );
    const event = (JSON.parse(wrapped?.body ?? "{}") as { error: unknown }).error;
    server.enqueue({ type: "stream-error", body: JSON.stringify(event) });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });

  it("recognises context_length_exceeded in a response.failed event", async () => {
    await start();
    server.enqueue({
      type: "stream-error",
      body: JSON.stringify({
        code: "context_length_exceeded",
        message: "Your input exceeds the context window of this model.",
      }),
    });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
  });

  it("answers the fake context window with the real overflow error and does not retry it", async () => {
    await start({ contextWindow: 10 });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
    expect(error.status).toBe(400);
    expect(server.requests).toHaveLength(1);
  });
});

// Plain text streaming, retries, drops, timeouts, aborts, missing usage, credentials and
// cache-stable bodies are the same for every adapter: adapter-contract.test.ts runs them for all four.
describe("OpenAI Responses adapter: request bodies", () => {
  const toolCallTurn = parallelReadTurn({ provider: "openai", api: "openai-responses", model: "gpt-5" });

  it("sends the system prompt as instructions and the tools as functions", async () => {
    await start();
    await run(
      {},
      {
        ...hello,
        tools: [
          {
            name: "read",
            description: "Read a file",
            parameters: { type: "object", properties: { path: { type: "string" } } },
          },
        ],
        maxOutputTokens: 500,
      },
    );
    expect(server.requests[0]?.body).toMatchObject({
      model: "gpt-4.1",
      instructions: "You are terse.",
      max_output_tokens: 500,
      tools: [
        {
          type: "function",
          name: "read",
          description: "Read a file",
          parameters: { type: "object", properties: { path: { type: "string" } } },
          strict: false,
        },
      ],
    });
  });

  it("puts the compaction summary first in the first user message", async () => {
    await start();
    const context: EffectiveContext = {
      compaction: { type: "compaction", summary: "We fixed bug #3." },
      messages: toolCallTurn,
    };
    await run({}, { ...hello, context });
    const first = inputOf(0)[0] as { role: string; content: Array<{ type: string; text: string }> };
    expect(first.role).toBe("user");
    expect(first.content[0]?.text).toMatch(
      /^<conversation-summary>\nWe fixed bug #3.\n<\/conversation-summary>/,
    );
    expect(first.content[1]).toEqual({ type: "input_text", text: "read a and b" });
  });

  it("puts the compaction summary in a user message of its own when the context starts with the assistant", async () => {
    await start();
    const context: EffectiveContext = {
      compaction: { type: "compaction", summary: "S" },
      messages: toolCallTurn.slice(1),
    };
    await run({}, { ...hello, context });
    const input = inputOf(0);
    expect(input[0]).toMatchObject({ role: "user", content: [{ type: "input_text" }] });
    expect(input[1]).toMatchObject({ type: "reasoning" });
  });

  it("echoes own reasoning, pairs every function call with its output in call order", async () => {
    await start();
    await run({ model: "gpt-5" }, { ...hello, context: { messages: toolCallTurn } });
    expect(inputOf(0)).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "read a and b" }] },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "both" }],
        encrypted_content: "ENC",
      },
      { type: "message", role: "assistant", content: "Reading." },
      { type: "function_call", call_id: "call_a", name: "read", arguments: '{"path":"a"}' },
      { type: "function_call", call_id: "call_b", name: "read", arguments: '{"path":"b"}' },
      { type: "function_call_output", call_id: "call_a", output: "Error: no such file" },
      { type: "function_call_output", call_id: "call_b", output: "B" },
    ]);
  });

  it("drops thinking from another API, and gives a call without a result a synthetic one", async () => {
    await start();
    const messages: Message[] = [user("go"), foreignToolCalls({ id: "toolu_1" }), user("never mind")];
    await run({}, { ...hello, context: { messages } });
    const input = inputOf(0);
    expect(input.some((item) => item.type === "reasoning")).toBe(false);
    expect(input[1]).toEqual({ type: "function_call", call_id: "toolu_1", name: "ls", arguments: "{}" });
    expect(input[2]).toMatchObject({ type: "function_call_output", call_id: "toolu_1" });
    expect(input[3]).toEqual({
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "never mind" }],
    });
  });

  it("sends images as data URLs, in user messages and in tool results", async () => {
    await start();
    const messages = screenshotTurn(
      { provider: "openai", api: "openai-responses", model: "gpt-4.1" },
      { id: "call_s", name: "screenshot", text: "shot" },
    );

    await run({}, { ...hello, context: { messages } });
    const input = inputOf(0);
    expect(input[0]).toMatchObject({
      content: [
        { type: "input_text", text: "look" },
        { type: "input_image", image_url: "data:image/png;base64,iVBOR" },
      ],
    });
    expect(input[2]).toMatchObject({
      type: "function_call_output",
      output: [
        { type: "input_text", text: "shot" },
        { type: "input_image", image_url: "data:image/jpeg;base64,/9j/" },
      ],
    });
  });
});

describe("ResponsesStreamReader", () => {
  const meta = { provider: "openai", model: "gpt-5" };
  const base = { id: "resp_1", object: "response", model: "gpt-5", output: [], usage: null };
  type Event = Parameters<ResponsesStreamReader["handle"]>[0];
  const event = (value: Record<string, unknown>): Event => value as unknown as Event;

  it.each([
    ["max_output_tokens", "length"],
    ["content_filter", "content-filter"],
  ])("maps an incomplete response (%s) to stop reason %s", (reason, stopReason) => {
    const reader = new ResponsesStreamReader(meta, undefined);
    reader.handle(
      event({ type: "response.incomplete", response: { ...base, incomplete_details: { reason } } }),
    );
    expect(reader.result()?.stopReason).toBe(stopReason);
  });

  it("keeps malformed tool-call arguments under _raw instead of failing", () => {
    const reader = new ResponsesStreamReader(meta, undefined);
    const item = { type: "function_call", id: "fc", call_id: "call_x", name: "edit", arguments: "" };
    reader.handle(event({ type: "response.output_item.added", output_index: 0, item }));
    reader.handle(
      event({
        type: "response.function_call_arguments.delta",
        output_index: 0,
        item_id: "fc",
        delta: '{"path": "a',
      }),
    );
    reader.handle(event({ type: "response.completed", response: base }));
    expect(reader.result()?.content).toEqual([
      { type: "tool-call", id: "call_x", name: "edit", arguments: { _raw: '{"path": "a' } },
    ]);
  });

  it("throws a context_overflow for a response.failed with context_length_exceeded", () => {
    const reader = new ResponsesStreamReader(meta, undefined);
    const failed = {
      ...base,
      status: "failed",
      error: {
        code: "context_length_exceeded",
        message: "Your input exceeds the context window of this model.",
      },
    };
    expect(() => reader.handle(event({ type: "response.failed", response: failed }))).toThrow(
      expect.objectContaining({ code: "context_overflow" }),
    );
  });

  it("has no result until a terminal event arrives", () => {
    const reader = new ResponsesStreamReader(meta, undefined);
    reader.handle(
      event({
        type: "response.output_text.delta",
        output_index: 0,
        item_id: "m",
        content_index: 0,
        delta: "x",
      }),
    );
    expect(reader.result()).toBeUndefined();
  });
});

describe("fake OpenAI Responses server", () => {
  it("answers a request that does not ask to stream with one response object", async () => {
    await start();
    server.enqueue({
      type: "tool-calls",
      text: "Calling.",
      calls: [{ id: "call_1", name: "ls", arguments: {} }],
      usage: { input: 7, output: 2 },
    });
    const response = await fetch(`${server.url}/responses`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", input: "hi" }),
    });
    expect(await response.json()).toMatchObject({
      object: "response",
      status: "completed",
      model: "gpt-4.1",
      output: [
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Calling." }] },
        { type: "function_call", call_id: "call_1", name: "ls", arguments: "{}" },
      ],
      usage: { input_tokens: 7, output_tokens: 2 },
    });
  });
});
