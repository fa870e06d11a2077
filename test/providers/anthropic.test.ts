import { describe, expect, it } from "vitest";
import type { EffectiveContext, StreamEvent } from "../../src/core/index.js";
import { MISSING_RESULT_TEXT } from "../../src/core/index.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeHttpServer, startSse, writeSse } from "../../src/simulator/fake-http.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import {
  type AdapterRequest,
  adapterHarness,
  assistantOf,
  rejection,
  request,
  toolResult,
  user,
} from "../support/adapter-harness.js";
import { adapterFixtures, fixtureReply } from "../support/provider-error-fixtures.js";

const FIXTURES = adapterFixtures((entry) => entry.api === "anthropic-messages");

const harness = adapterHarness({
  startServer: startFakeAnthropicServer,
  createClient: createAnthropicClient,
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  maxRetries: 2,
  startBeforeEach: true,
});
const { server, start, client } = harness;

const assistant = assistantOf({ provider: "anthropic", api: "anthropic-messages" });

type Body = {
  system?: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
  max_tokens: number;
  stream: boolean;
};

/** Sends the given message context and returns the request body the server received. */
async function bodyFor(context: EffectiveContext, extra: Partial<AdapterRequest> = {}): Promise<Body> {
  return (await harness.bodyFor(context, extra)) as Body;
}

/** A raw Anthropic SSE server that plays fixed events, for stop reasons and payloads the scripted fake does not produce. */
function startScriptedStream(events: Array<[string, unknown]>): Promise<FakeServer> {
  return startFakeHttpServer({
    pathPrefix: "",
    answer: (_reply, _request, res) => {
      startSse(res);
      for (const [event, data] of events) writeSse(res, data, event);
      res.end();
    },
  });
}

const messageStart: [string, unknown] = [
  "message_start",
  {
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [],
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  },
];
const messageEnd = (stopReason: string): Array<[string, unknown]> => [
  [
    "message_delta",
    { type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 3 } },
  ],
  ["message_stop", { type: "message_stop" }],
];

describe("Anthropic adapter: streaming", () => {
  it("streams thinking, text and parallel tool calls as events and returns them in order", async () => {
    server.enqueue({
      type: "tool-calls",
      thinking: "The user wants two files read.",
      text: "Reading both files.",
      calls: [
        { id: "toolu_a", name: "read", arguments: { path: "a.ts" } },
        { id: "toolu_b", name: "read", arguments: { path: "b.ts", limit: 20 } },
      ],
    });
    const events: StreamEvent[] = [];
    const message = await client().stream(request([user("read a and b")]), {
      onEvent: (event) => events.push(event),
    });

    expect(message.content).toEqual([
      { type: "thinking", text: "The user wants two files read.", signature: expect.stringMatching(/^sig_/) },
      { type: "text", text: "Reading both files." },
      { type: "tool-call", id: "toolu_a", name: "read", arguments: { path: "a.ts" } },
      { type: "tool-call", id: "toolu_b", name: "read", arguments: { path: "b.ts", limit: 20 } },
    ]);
    expect(message).toMatchObject({
      stopReason: "tool-use",
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude-sonnet-4-5",
    });
    const text = (type: string) =>
      events.flatMap((event) => (event.type === type && "text" in event ? [event.text] : [])).join("");
    expect(text("thinking-delta")).toBe("The user wants two files read.");
    expect(text("text-delta")).toBe("Reading both files.");
    expect(events.filter((event) => event.type === "tool-call-start")).toEqual([
      { type: "tool-call-start", id: "toolu_a", name: "read" },
      { type: "tool-call-start", id: "toolu_b", name: "read" },
    ]);
    const ends = events.flatMap((event) => (event.type === "tool-call-end" ? [event.call] : []));
    expect(ends.map((call) => call.arguments)).toEqual([{ path: "a.ts" }, { path: "b.ts", limit: 20 }]);
  });

  it.each([
    ["max_tokens", "length"],
    ["refusal", "content-filter"],
    ["stop_sequence", "stop"],
  ])("maps stop_reason %s to %s", async (stopReason, expected) => {
    const scripted = await startScriptedStream([messageStart, ...messageEnd(stopReason)]);
    try {
      const message = await client({ baseURL: scripted.url }).stream(request([user("hi")]));
      expect(message.stopReason).toBe(expected);
    } finally {
      await scripted.close();
    }
  });

  it("treats stop_reason model_context_window_exceeded as a context overflow", async () => {
    const scripted = await startScriptedStream([
      messageStart,
      ...messageEnd("model_context_window_exceeded"),
    ]);
    try {
      const error = await rejection(client({ baseURL: scripted.url }).stream(request([user("hi")])));
      expect(error.code).toBe("context_overflow");
      expect(scripted.requests).toHaveLength(1);
    } finally {
      await scripted.close();
    }
  });

  it("keeps malformed tool-call JSON under _raw instead of failing", async () => {
    const scripted = await startScriptedStream([
      messageStart,
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_x", name: "bash", input: {} },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: '{"command": "ls' },
        },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      ...messageEnd("tool_use"),
    ]);
    try {
      const message = await client({ baseURL: scripted.url }).stream(request([user("hi")]));
      expect(message.content).toEqual([
        { type: "tool-call", id: "toolu_x", name: "bash", arguments: { _raw: '{"command": "ls' } },
      ]);
    } finally {
      await scripted.close();
    }
  });
});

describe("Anthropic adapter: usage", () => {
  it("adds cache reads and writes into the prompt size and reports them", async () => {
    server.enqueue({
      type: "text",
      text: "ok",
      usage: { input: 100, output: 20, cacheRead: 300, cacheWrite: 50 },
    });
    const message = await client().stream(request([user("hi")]));
    expect(message.usage).toEqual({
      promptTokens: 450,
      outputTokens: 20,
      resentOutputTokens: 20,
      cacheReadTokens: 300,
      cacheWriteTokens: 50,
    });
  });

  it("reports the part of the cache writes made for the one-hour cache, when the API splits them", async () => {
    server.enqueue({
      type: "text",
      text: "ok",
      usage: { input: 10, output: 2, cacheRead: 300, cacheWrite: 500, longCacheWrite: 120 },
    });
    server.enqueue({
      type: "text",
      text: "ok",
      usage: { input: 10, output: 2, cacheWrite: 500, longCacheWrite: 0 },
    });
    const long = await client().stream(request([user("hi")]));
    expect(long.usage).toEqual({
      promptTokens: 810,
      outputTokens: 2,
      resentOutputTokens: 2,
      cacheReadTokens: 300,
      cacheWriteTokens: 500,
      longCacheWriteTokens: 120,
    });
    // A split with nothing written for the hour says nothing more than the total.
    const none = await client().stream(request([user("hi")]));
    expect(none.usage).not.toHaveProperty("longCacheWriteTokens");
    expect(none.usage?.cacheWriteTokens).toBe(500);
  });

  it("counts thinking tokens as output that is not re-sent", async () => {
    server.enqueue({
      type: "text",
      text: "ok",
      thinking: "hmm",
      usage: { input: 10, output: 5, reasoning: 7 },
    });
    const message = await client().stream(request([user("hi")]));
    expect(message.usage).toMatchObject({
      promptTokens: 10,
      outputTokens: 12,
      resentOutputTokens: 5,
      reasoningTokens: 7,
    });
  });

  it("combines message_start input figures with updated message_delta figures", async () => {
    const scripted = await startScriptedStream([
      messageStart,
      [
        "message_delta",
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn" },
          usage: { output_tokens: 9, input_tokens: 12, cache_read_input_tokens: 40 },
        },
      ],
      ["message_stop", { type: "message_stop" }],
    ]);
    try {
      const message = await client({ baseURL: scripted.url }).stream(request([user("hi")]));
      expect(message.usage).toEqual({
        promptTokens: 52,
        outputTokens: 9,
        resentOutputTokens: 9,
        cacheReadTokens: 40,
      });
    } finally {
      await scripted.close();
    }
  });

  it("reports the default usage from the request size when none is scripted", async () => {
    server.enqueue({ type: "text", text: "12345678" });
    const message = await client().stream(request([user("hi")]));
    expect(message.usage?.outputTokens).toBe(2);
    expect(message.usage?.promptTokens).toBeGreaterThan(0);
  });
});

describe("Anthropic adapter: errors from the fixture file", () => {
  it.each(
    FIXTURES.map(
      (entry) =>
        [`${entry.provider} ${entry.status ?? "in-stream"}: ${entry.body.slice(0, 60)}`, entry] as const,
    ),
  )("classifies %s", async (_name, entry) => {
    server.enqueue(fixtureReply(entry));
    const error = await rejection(client({ retry: { maxRetries: 0 } }).stream(request([user("hi")])));
    if (entry.scored !== false) expect(error.code === "context_overflow").toBe(entry.is_overflow);
    if (entry.status !== null) expect(error.status).toBe(entry.status);
    expect(server.requests).toHaveLength(1);
  });
});

// Plain text streaming, retries, drops, timeouts, aborts, missing usage, credentials and
// cache-stable bodies are the same for every adapter: adapter-contract.test.ts runs them for all four.
describe("Anthropic adapter: overflows", () => {
  it("answers an oversized request with the real overflow error, classified and never retried", async () => {
    await start({ contextWindow: 50 });
    const error = await rejection(
      client({ retry: { maxRetries: 3, baseDelayMs: 1 } }).stream(request([user("x".repeat(400))])),
    );
    expect(error.code).toBe("context_overflow");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/prompt is too long: \d+ tokens > 50 maximum/);
    expect(error.contextWindow).toBe(50);
    expect(error.message).toContain(`${error.requestTokens} tokens > 50`);
    expect(server.requests).toHaveLength(1);
  });

  it("recognises an overflow that arrives inside the stream and does not retry it", async () => {
    server.enqueue({
      type: "stream-error",
      body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
    });
    const error = await rejection(client().stream(request([user("hi")])));
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [
      "a gateway's error",
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}',
    ],
    [
      "an unstreamed message",
      '{"type":"message","role":"assistant","content":[],"stop_reason":"model_context_window_exceeded"}',
    ],
  ])("recognises an overflow in %s sent as 200 JSON instead of a stream", async (_name, body) => {
    server.enqueue({ type: "error", status: 200, body });
    const error = await rejection(client().stream(request([user("hi")])));
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });
});

describe("Anthropic adapter: request bodies", () => {
  const tools = [
    {
      name: "read",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } } },
    },
    {
      name: "bash",
      description: "Run a command",
      parameters: { type: "object", properties: { command: { type: "string" } } },
    },
  ];

  it("sends the system prompt, tools and max_tokens with cache breakpoints on the last tool and the system prompt", async () => {
    const body = await bodyFor({ messages: [user("hi")] }, { tools });
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBe(16_384);
    expect(body.system).toEqual([
      { type: "text", text: "You are panto.", cache_control: { type: "ephemeral" } },
    ]);
    expect(body.tools).toEqual([
      { name: "read", description: "Read a file", input_schema: tools[0]?.parameters },
      {
        ...{ name: "bash", description: "Run a command", input_schema: tools[1]?.parameters },
        cache_control: { type: "ephemeral" },
      },
    ]);
  });

  it("uses the configured output limit, and the request's over the adapter's", async () => {
    await client({ maxOutputTokens: 1000 }).stream(request([user("hi")]));
    await client({ maxOutputTokens: 1000 }).stream(request([user("hi")], { maxOutputTokens: 200 }));
    await client({ model: "claude-3-5-haiku-latest" }).stream(request([user("hi")]));
    expect(server.requests.map((recorded) => (recorded.body as Body).max_tokens)).toEqual([1000, 200, 8192]);
  });

  it("puts the compaction block first in the first user message, with a cache breakpoint", async () => {
    const body = await bodyFor({
      compaction: { type: "compaction", summary: "We fixed bug #3." },
      messages: [user("next step?")],
    });
    expect(body.messages).toHaveLength(1);
    const [summary, prompt] = body.messages[0]?.content ?? [];
    expect(body.messages[0]?.role).toBe("user");
    expect(summary).toMatchObject({ type: "text", cache_control: { type: "ephemeral" } });
    expect(summary?.text).toMatch(/^<conversation-summary>\nWe fixed bug #3.\n<\/conversation-summary>/);
    expect(prompt).toEqual({ type: "text", text: "next step?", cache_control: { type: "ephemeral" } });
  });

  it("gives the compaction block its own user message when the context starts with the assistant", async () => {
    const body = await bodyFor({
      compaction: { type: "compaction", summary: "S" },
      messages: [assistant([{ type: "text", text: "carrying on" }]), user("go")],
    });
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(body.messages[0]?.content[0]?.text).toContain("<conversation-summary>\nS\n");
  });

  it("marks the latest turn and uses at most four cache breakpoints", async () => {
    const body = await bodyFor(
      {
        compaction: { type: "compaction", summary: "S" },
        messages: [user("one"), assistant([{ type: "text", text: "two" }]), user("three")],
      },
      { tools },
    );
    const marked = JSON.stringify(body).match(/"cache_control"/g) ?? [];
    expect(marked).toHaveLength(4);
    expect(body.messages.at(-1)?.content.at(-1)).toEqual({
      type: "text",
      text: "three",
      cache_control: { type: "ephemeral" },
    });
    expect(body.messages[1]?.content[0]).not.toHaveProperty("cache_control");
  });

  it("sends a one-off request (a compaction's summary) without cache breakpoints: billed as input, not as a cache write nothing reads", async () => {
    const context = {
      compaction: { type: "compaction" as const, summary: "S" },
      messages: [user("one"), assistant([{ type: "text" as const, text: "two" }]), user("three")],
    };
    const cached = await bodyFor(context, { tools });
    expect(JSON.stringify(cached).match(/"cache_control"/g) ?? []).toHaveLength(4);
    const body = await bodyFor(context, { tools, oneOff: true });
    expect(JSON.stringify(body)).not.toContain("cache_control");
    // The same request otherwise: only the markers differ.
    expect(
      JSON.parse(JSON.stringify(cached).replace(/,"cache_control":\{"type":"ephemeral"\}/g, "")),
    ).toEqual(body);
  });

  /** n turns of one `bash` call each: call `c<i>`, its result, and an answer. */
  const toolTurns = (n: number): EffectiveContext["messages"] =>
    Array.from({ length: n }, (_, index) => [
      user(`step ${index}`),
      assistant([
        { type: "tool-call", id: `c${index}`, name: "bash", arguments: { command: `make ${index}` } },
      ]),
      {
        role: "tool" as const,
        content: [
          {
            type: "tool-result" as const,
            toolCallId: `c${index}`,
            toolName: "bash",
            content: [{ type: "text" as const, text: `output ${index}` }],
            isError: false,
          },
        ],
      },
      assistant([{ type: "text", text: `done ${index}` }]),
    ]).flat();

  /** Every breakpoint of a body in prompt order (tools, system, messages), with the block it marks. */
  const breakpoints = (body: Body) =>
    [
      ...(body.tools ?? []).map((tool) => ({ at: `tool ${tool.name}`, marker: tool.cache_control })),
      ...(body.system ?? []).map((block) => ({ at: "system", marker: block.cache_control })),
      ...body.messages.flatMap((message) =>
        message.content.map((block) => ({
          at:
            block.type === "tool_result"
              ? `result ${block.tool_use_id}`
              : `${block.type} ${block.text ?? ""}`.slice(0, 30),
          marker: block.cache_control,
        })),
      ),
    ].filter((point) => point.marker !== undefined);

  it("caches the prefix clearing settled for an hour: its settled results, and the breakpoint before them, first; four at most", async () => {
    const hour = { type: "ephemeral", ttl: "1h" };
    const fiveMinutes = { type: "ephemeral" };
    const messages = [...toolTurns(4), user("next")];
    const plain = await bodyFor({ messages, settledToolCallIds: ["c0", "c2"] }, { tools });
    expect(breakpoints(plain)).toEqual([
      { at: "system", marker: hour },
      { at: "result c0", marker: hour },
      { at: "result c2", marker: hour },
      { at: "text next", marker: fiveMinutes },
    ]);
    const compacted = await bodyFor(
      { compaction: { type: "compaction", summary: "S" }, messages, settledToolCallIds: ["c1", "c3"] },
      { tools },
    );
    expect(breakpoints(compacted).map((point) => [point.at.split(" ")[0], point.marker])).toEqual([
      ["text", hour],
      ["result", hour],
      ["result", hour],
      ["text", fiveMinutes],
    ]);
    expect(breakpoints(compacted)[0]?.at).toMatch(/^text <conversation-summary>/);
    expect(
      breakpoints(compacted)
        .slice(1, 3)
        .map((point) => point.at),
    ).toEqual(["result c1", "result c3"]);
  });

  it("gives the settled results five-minute breakpoints on another provider of this wire format, four at most", async () => {
    const fiveMinutes = { type: "ephemeral" };
    const messages = [...toolTurns(4), user("next")];
    await client({ provider: "my-proxy" }).stream({
      systemPrompt: "You are panto.",
      context: {
        compaction: { type: "compaction", summary: "S" },
        messages,
        settledToolCallIds: ["c0", "c2"],
      },
      tools,
    });
    const body = server.requests.at(-1)?.body as Body;
    expect(breakpoints(body).map((point) => [point.at.split(" ")[0], point.marker])).toEqual([
      ["text", fiveMinutes],
      ["result", fiveMinutes],
      ["result", fiveMinutes],
      ["text", fiveMinutes],
    ]);
    expect(
      breakpoints(body)
        .slice(1, 3)
        .map((point) => point.at),
    ).toEqual(["result c0", "result c2"]);
  });

  it("keeps the five-minute breakpoints when nothing is settled, or the settled result is the latest turn's own", async () => {
    const fiveMinutes = { type: "ephemeral" };
    const messages = toolTurns(2).slice(0, -1);
    const none = await bodyFor({ messages: [...messages, user("next")] }, { tools });
    expect(breakpoints(none).map((point) => point.marker)).toEqual([fiveMinutes, fiveMinutes, fiveMinutes]);
    // The context ends with c1's result: its breakpoint is the latest turn's, for five minutes.
    const latest = await bodyFor({ messages, settledToolCallIds: ["c1"] }, { tools });
    expect(breakpoints(latest)).toEqual([
      { at: "tool bash", marker: fiveMinutes },
      { at: "system", marker: fiveMinutes },
      { at: "result c1", marker: fiveMinutes },
    ]);
    // An id the context does not hold (a stale one) settles nothing.
    const stale = await bodyFor(
      { messages: [...messages, user("x")], settledToolCallIds: ["gone"] },
      { tools },
    );
    expect(breakpoints(stale).every((point) => (point.marker as { ttl?: string }).ttl === undefined)).toBe(
      true,
    );
  });

  it("answers every tool_use in the next user message, in call order, even when results were split or lost", async () => {
    const body = await bodyFor({
      messages: [
        user("look around"),
        assistant(
          [
            { type: "tool-call", id: "toolu_1", name: "ls", arguments: {} },
            { type: "tool-call", id: "toolu_2", name: "read", arguments: { path: "a" } },
            { type: "tool-call", id: "toolu_3", name: "read", arguments: { path: "b" } },
          ],
          { stopReason: "tool-use" },
        ),
        {
          role: "tool",
          content: [toolResult("toolu_2", "read", "A")],
        },
        {
          role: "tool",
          content: [toolResult("toolu_1", "ls", "a b")],
        },
      ],
    });
    expect(body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(body.messages[1]?.content.map((block) => block.id)).toEqual(["toolu_1", "toolu_2", "toolu_3"]);
    const results = body.messages[2]?.content ?? [];
    expect(results.map((block) => [block.type, block.tool_use_id])).toEqual([
      ["tool_result", "toolu_1"],
      ["tool_result", "toolu_2"],
      ["tool_result", "toolu_3"],
    ]);
    expect(results[2]).toMatchObject({
      is_error: true,
      content: [{ type: "text", text: MISSING_RESULT_TEXT }],
    });
  });

  it("merges consecutive user messages so roles alternate", async () => {
    const body = await bodyFor({ messages: [user("first try"), user("second try")] });
    expect(body.messages).toHaveLength(1);
    expect(body.messages[0]?.content.map((block) => block.text)).toEqual(["first try", "second try"]);
  });

  it("sends images from the user and from tool results as base64 image blocks", async () => {
    const image = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
    const body = await bodyFor({
      messages: [
        { role: "user", content: [{ type: "text", text: "what is this?" }, image] },
        assistant([{ type: "tool-call", id: "toolu_s", name: "screenshot", arguments: {} }]),
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "toolu_s",
              toolName: "screenshot",
              content: [image],
              isError: false,
            },
          ],
        },
      ],
    });
    const source = { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" };
    expect(body.messages[0]?.content[1]).toEqual({ type: "image", source });
    expect(body.messages[2]?.content[0]).toMatchObject({
      type: "tool_result",
      tool_use_id: "toolu_s",
      content: [{ type: "image", source }],
    });
  });

  it("echoes signed and redacted thinking from this API and drops thinking it cannot vouch for", async () => {
    const body = await bodyFor({
      messages: [
        user("q1"),
        assistant([
          { type: "thinking", text: "signed thought", signature: "sig_abc" },
          { type: "thinking", text: "", redacted: "opaque==" },
          { type: "thinking", text: "unsigned thought" },
          { type: "text", text: "a1" },
        ]),
        user("q2"),
        assistant(
          [
            { type: "thinking", text: "other api thought", signature: "x" },
            { type: "text", text: "a2" },
          ],
          {
            provider: "openai",
            api: "openai-responses",
          },
        ),
        user("q3"),
      ],
    });
    expect(body.messages[1]?.content).toEqual([
      { type: "thinking", thinking: "signed thought", signature: "sig_abc" },
      { type: "redacted_thinking", data: "opaque==" },
      { type: "text", text: "a1" },
    ]);
    expect(body.messages[3]?.content).toEqual([{ type: "text", text: "a2" }]);
  });

  it("keeps tool call ids from another API paired, rewriting characters Anthropic refuses", async () => {
    const body = await bodyFor({
      messages: [
        user("go"),
        assistant([{ type: "tool-call", id: "call_1|fc_2", name: "ls", arguments: {} }], {
          provider: "openai",
          api: "openai-responses",
        }),
        {
          role: "tool",
          content: [toolResult("call_1|fc_2", "ls", ".")],
        },
      ],
    });
    expect(body.messages[1]?.content[0]?.id).toBe("call_1_fc_2");
    expect(body.messages[2]?.content[0]?.tool_use_id).toBe("call_1_fc_2");
  });
});

describe("fake Anthropic server", () => {
  it("answers a non-streaming request with a whole message and Anthropic-shaped usage", async () => {
    server.enqueue({
      type: "tool-calls",
      text: "hi",
      calls: [{ id: "toolu_z", name: "ls", arguments: {} }],
      usage: { input: 7, output: 3, cacheRead: 2 },
    });
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-x",
        max_tokens: 10,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(await response.json()).toMatchObject({
      type: "message",
      model: "claude-x",
      content: [
        { type: "text", text: "hi" },
        { type: "tool_use", id: "toolu_z", name: "ls", input: {} },
      ],
      stop_reason: "tool_use",
      usage: {
        input_tokens: 7,
        output_tokens: 3,
        cache_read_input_tokens: 2,
        cache_creation_input_tokens: 0,
      },
    });
  });
});
