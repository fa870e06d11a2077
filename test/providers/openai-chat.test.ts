import { describe, expect, it } from "vitest";
import type { EffectiveContext, StreamEvent } from "../../src/core/index.js";
import { MISSING_RESULT_TEXT } from "../../src/core/index.js";
import { createOpenAIChatClient } from "../../src/providers/openai-chat/index.js";
import { sendBody, startFakeHttpServer, startSse, writeSse } from "../../src/simulator/fake-http.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
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
import { adapterFixtures } from "../support/provider-error-fixtures.js";

/** The wire formats this adapter serves: OpenAI itself and every OpenAI-compatible server. */
const CHAT_APIS = new Set([
  "openai-chat",
  "openai-compatible",
  "mistral-chat",
  "ollama-embed",
  "ollama-cloud",
]);
const FIXTURES = adapterFixtures((entry) => CHAT_APIS.has(entry.api));
const HTTP_FIXTURES = FIXTURES.filter((entry) => entry.status !== 200);
const IN_STREAM_FIXTURES = FIXTURES.filter((entry) => entry.status === null);

const harness = adapterHarness({
  startServer: startFakeOpenAIChatServer,
  createClient: createOpenAIChatClient,
  provider: "local",
  model: "qwen3-coder",
  maxRetries: 2,
  startBeforeEach: true,
});
const { server, start, client } = harness;

const assistant = assistantOf({ provider: "local", api: "openai-chat" });

interface ChatBody {
  model: string;
  messages: Array<Record<string, unknown> & { role: string }>;
  tools?: unknown[];
  stream: boolean;
  stream_options?: unknown;
  max_tokens?: number;
  max_completion_tokens?: number;
}
const sentBody = (index: number): ChatBody => server.requests[index]?.body as ChatBody;

async function bodyFor(context: EffectiveContext, extra: Partial<AdapterRequest> = {}): Promise<ChatBody> {
  return (await harness.bodyFor(context, extra)) as ChatBody;
}

/** A raw chat SSE server that plays fixed chunks, for shapes the scripted fake does not produce. */
function startScriptedStream(chunks: unknown[]): Promise<FakeServer> {
  return startFakeHttpServer({
    pathPrefix: "/v1",
    answer: (_reply, _request, res) => {
      startSse(res);
      for (const chunk of chunks) writeSse(res, chunk);
      writeSse(res, "[DONE]");
      res.end();
    },
  });
}

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
  id: "c",
  object: "chat.completion.chunk",
  model: "m",
  choices: [{ index: 0, delta, finish_reason: finishReason }],
});

async function withScripted<T>(chunks: unknown[], run: (scripted: FakeServer) => Promise<T>): Promise<T> {
  const scripted = await startScriptedStream(chunks);
  try {
    return await run(scripted);
  } finally {
    await scripted.close();
  }
}

describe("OpenAI chat adapter: streaming", () => {
  it("streams reasoning, text and parallel tool calls as events and returns them in order", async () => {
    server.enqueue({
      type: "tool-calls",
      thinking: "Two files are needed.",
      text: "Reading both.",
      calls: [
        { id: "call_a", name: "read", arguments: { path: "a.ts" } },
        { id: "call_b", name: "read", arguments: { path: "b.ts", limit: 20 } },
      ],
    });
    const events: StreamEvent[] = [];
    const message = await client().stream(request([user("read a and b")]), {
      onEvent: (event) => events.push(event),
    });

    expect(message.content).toEqual([
      { type: "thinking", text: "Two files are needed." },
      { type: "text", text: "Reading both." },
      { type: "tool-call", id: "call_a", name: "read", arguments: { path: "a.ts" } },
      { type: "tool-call", id: "call_b", name: "read", arguments: { path: "b.ts", limit: 20 } },
    ]);
    expect(message).toMatchObject({
      stopReason: "tool-use",
      provider: "local",
      api: "openai-chat",
      model: "qwen3-coder",
    });
    const text = (type: string) =>
      events.flatMap((event) => (event.type === type && "text" in event ? [event.text] : [])).join("");
    expect(text("thinking-delta")).toBe("Two files are needed.");
    expect(text("text-delta")).toBe("Reading both.");
    expect(events.filter((event) => event.type === "tool-call-start")).toEqual([
      { type: "tool-call-start", id: "call_a", name: "read" },
      { type: "tool-call-start", id: "call_b", name: "read" },
    ]);
    const ends = events.flatMap((event) => (event.type === "tool-call-end" ? [event.call.id] : []));
    expect(ends).toEqual(["call_a", "call_b"]);
  });

  it("reads `reasoning` deltas (OpenRouter, Ollama) as thinking", async () => {
    const message = await withScripted(
      [chunk({ role: "assistant", reasoning: "let me see" }), chunk({ content: "done" }), chunk({}, "stop")],
      (scripted) => client({ baseURL: scripted.url }).stream(request([user("hi")])),
    );
    expect(message.content).toEqual([
      { type: "thinking", text: "let me see" },
      { type: "text", text: "done" },
    ]);
  });

  it.each([
    ["length", "length"],
    ["content_filter", "content-filter"],
    ["stop", "stop"],
  ])("maps finish_reason %s to %s", async (finishReason, expected) => {
    const message = await withScripted([chunk({ content: "x" }), chunk({}, finishReason)], (scripted) =>
      client({ baseURL: scripted.url }).stream(request([user("hi")])),
    );
    expect(message.stopReason).toBe(expected);
  });

  it("calls tool calls tool-use even when the server says stop, and names calls that came without ids", async () => {
    const events: StreamEvent[] = [];
    const message = await withScripted(
      [chunk({ tool_calls: [{ index: 0, function: { name: "ls", arguments: "{}" } }] }), chunk({}, "stop")],
      (scripted) =>
        client({ baseURL: scripted.url }).stream(request([user("hi")]), {
          onEvent: (event) => events.push(event),
        }),
    );
    expect(message.stopReason).toBe("tool-use");
    const call = message.content[0];
    expect(call).toMatchObject({
      type: "tool-call",
      name: "ls",
      arguments: {},
      id: expect.stringMatching(/^call_\w+/),
    });
    expect(events[0]).toEqual({
      type: "tool-call-start",
      id: call?.type === "tool-call" ? call.id : "",
      name: "ls",
    });
  });

  it("keeps malformed tool-call JSON under _raw instead of failing", async () => {
    const message = await withScripted(
      [
        chunk({
          tool_calls: [
            {
              index: 0,
              id: "call_x",
              type: "function",
              function: { name: "bash", arguments: '{"command": "ls' },
            },
          ],
        }),
        chunk({}, "tool_calls"),
      ],
      (scripted) => client({ baseURL: scripted.url }).stream(request([user("hi")])),
    );
    expect(message.content).toEqual([
      { type: "tool-call", id: "call_x", name: "bash", arguments: { _raw: '{"command": "ls' } },
    ]);
  });

  it("treats finish_reason model_context_window_exceeded as a context overflow, not retried", async () => {
    await withScripted(
      [chunk({ content: "" }), chunk({}, "model_context_window_exceeded")],
      async (scripted) => {
        const error = await rejection(client({ baseURL: scripted.url }).stream(request([user("hi")])));
        expect(error.code).toBe("context_overflow");
        expect(scripted.requests).toHaveLength(1);
      },
    );
  });

  it("accepts a server that ignores stream: true and answers with one JSON completion", async () => {
    const plain = await startFakeHttpServer({
      pathPrefix: "/v1",
      answer: (_reply, _request, res) =>
        sendBody(
          res,
          200,
          JSON.stringify({
            choices: [
              {
                message: {
                  role: "assistant",
                  content: "hello",
                  tool_calls: [
                    { id: "call_j", type: "function", function: { name: "ls", arguments: '{"a":1}' } },
                  ],
                },
                finish_reason: "tool_calls",
              },
            ],
            usage: { prompt_tokens: 11, completion_tokens: 4 },
          }),
        ),
    });
    try {
      const message = await client({ baseURL: plain.url }).stream(request([user("hi")]));
      expect(message.content).toEqual([
        { type: "text", text: "hello" },
        { type: "tool-call", id: "call_j", name: "ls", arguments: { a: 1 } },
      ]);
      expect(message.usage).toEqual({ promptTokens: 11, outputTokens: 4, resentOutputTokens: 4 });
    } finally {
      await plain.close();
    }
  });
});

describe("OpenAI chat adapter: usage", () => {
  it("requests the usage chunk and normalises cached and reasoning tokens", async () => {
    server.enqueue({
      type: "text",
      text: "ok",
      usage: { input: 100, output: 20, cacheRead: 30, reasoning: 5 },
    });
    const message = await client().stream(request([user("hi")]));
    expect(sentBody(0).stream_options).toEqual({ include_usage: true });
    expect(message.usage).toEqual({
      promptTokens: 130,
      outputTokens: 25,
      resentOutputTokens: 20,
      cacheReadTokens: 30,
      reasoningTokens: 5,
    });
  });

  it("reads DeepSeek's prompt_cache_hit_tokens as cache reads", async () => {
    const message = await withScripted(
      [
        chunk({ content: "x" }, "stop"),
        {
          id: "c",
          choices: [],
          usage: { prompt_tokens: 50, completion_tokens: 2, prompt_cache_hit_tokens: 40 },
        },
      ],
      (scripted) => client({ baseURL: scripted.url }).stream(request([user("hi")])),
    );
    expect(message.usage).toEqual({
      promptTokens: 50,
      outputTokens: 2,
      resentOutputTokens: 2,
      cacheReadTokens: 40,
    });
  });

  it("drops stream_options once for a server that rejects it, and remembers", async () => {
    server.enqueue({
      type: "error",
      status: 400,
      body: '{"error":{"message":"Unrecognized request argument supplied: stream_options","type":"invalid_request_error"}}',
    });
    const chat = client();
    const first = await chat.stream(request([user("hi")]));
    await chat.stream(request([user("again")]));
    expect(first.content).toEqual([{ type: "text", text: "ok" }]);
    expect(server.requests.map((recorded) => "stream_options" in (recorded.body as object))).toEqual([
      true,
      false,
      false,
    ]);
    expect(first.usage).toBeUndefined();
  });
});

describe("OpenAI chat adapter: the request on the wire", () => {
  it("posts to {base}/chat/completions with the key as a bearer token, and configured headers win whatever their case", async () => {
    await client({ headers: { "X-Team": "core", Authorization: "Bearer from-config" } }).stream(
      request([user("hi")]),
    );
    const [sent] = server.requests;
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/v1/chat/completions");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers["x-team"]).toBe("core");
    expect(sent?.headers.authorization).toBe("Bearer from-config");
    await client({ baseURL: `${server.url}/` }).stream(request([user("again")]));
    expect(server.requests[1]?.path).toBe("/v1/chat/completions");
    expect(server.requests[1]?.headers.authorization).toBe("Bearer test-key");
  });

  it("sends OPENAI_ORG_ID and OPENAI_PROJECT_ID as the OpenAI SDK did, and a placeholder key to a keyless server", async () => {
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = "org-1";
    process.env.OPENAI_PROJECT_ID = "proj-1";
    try {
      const keyless = createOpenAIChatClient({
        provider: "local",
        model: "qwen3-coder",
        baseURL: server.url,
      });
      await keyless.stream(request([user("hi")]));
    } finally {
      for (const [name, value] of [
        ["OPENAI_ORG_ID", saved.org],
        ["OPENAI_PROJECT_ID", saved.project],
      ] as const)
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
    const headers = server.requests[0]?.headers;
    expect(headers?.["openai-organization"]).toBe("org-1");
    expect(headers?.["openai-project"]).toBe("proj-1");
    expect(headers?.authorization).toBe("Bearer no-key");
  });
});

describe("OpenAI chat adapter: errors from the fixture file", () => {
  it.each(
    HTTP_FIXTURES.map(
      (entry) =>
        [`${entry.provider} ${entry.status ?? "null->400"}: ${entry.body.slice(0, 60)}`, entry] as const,
    ),
  )("classifies HTTP %s", async (_name, entry) => {
    const status = entry.status ?? 400;
    server.enqueue({ type: "error", status, body: entry.body });
    const error = await rejection(client({ retry: { maxRetries: 0 } }).stream(request([user("hi")])));
    if (entry.scored !== false) expect(error.code === "context_overflow").toBe(entry.is_overflow);
    expect(error.status).toBe(status);
    expect(server.requests).toHaveLength(1);
  });

  it.each(
    IN_STREAM_FIXTURES.map((entry) => [`${entry.provider}: ${entry.body.slice(0, 60)}`, entry] as const),
  )("classifies the in-stream error chunk %s", async (_name, entry) => {
    server.enqueue({ type: "stream-error", body: entry.body });
    const error = await rejection(client({ retry: { maxRetries: 0 } }).stream(request([user("hi")])));
    if (entry.scored !== false) expect(error.code === "context_overflow").toBe(entry.is_overflow);
    expect(error.status).toBeUndefined();
  });

  it("passes error bodies the SDK would drop (no `error` field) to the classifier verbatim", async () => {
    const body =
      '{"object":"error","message":"The input (1492905 tokens) is longer than the model\'s context length (1048576 tokens).","type":"BadRequestError","param":null,"code":400}';
    server.enqueue({ type: "error", status: 400, body });
    const error = await rejection(client().stream(request([user("hi")])));
    expect(error.code).toBe("context_overflow");
    expect(error.message).toContain("is longer than the model's context length");
  });

  it("recognises a 200 completion that finished with model_context_window_exceeded as an overflow", async () => {
    const entry = FIXTURES.find((candidate) => candidate.status === 200);
    expect(entry).toBeDefined();
    server.enqueue({ type: "error", status: 200, body: entry?.body ?? "" });
    const error = await rejection(client().stream(request([user("hi")])));
    expect(error.code).toBe("context_overflow");
    expect(server.requests).toHaveLength(1);
  });
});

// Plain text streaming, retries, drops, timeouts, aborts, missing usage, credentials and
// cache-stable bodies are the same for every adapter: adapter-contract.test.ts runs them for all four.
describe("OpenAI chat adapter: overflows", () => {
  it("answers an oversized request with OpenAI's real overflow error, classified and never retried", async () => {
    await start({ contextWindow: 50 });
    const error = await rejection(
      client({ retry: { maxRetries: 3, baseDelayMs: 1 } }).stream(request([user("x".repeat(400))])),
    );
    expect(error.code).toBe("context_overflow");
    expect(error.message).toMatch(
      /maximum context length is 50 tokens\. However, your messages resulted in \d+ tokens/,
    );
    expect(error.contextWindow).toBe(50);
    expect(error.message).toContain(`resulted in ${error.requestTokens} tokens`);
    expect(server.requests).toHaveLength(1);
  });
});

describe("OpenAI chat adapter: request bodies", () => {
  const tools = [
    {
      name: "read",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } } },
    },
  ];

  it("sends the system prompt first, function tools, and no output limit unless configured", async () => {
    const body = await bodyFor({ messages: [user("hi")] }, { tools });
    expect(body.model).toBe("qwen3-coder");
    expect(body.stream).toBe(true);
    expect(body.messages).toEqual([
      { role: "system", content: "You are panto." },
      { role: "user", content: "hi" },
    ]);
    expect(body.tools).toEqual([
      {
        type: "function",
        function: { name: "read", description: "Read a file", parameters: tools[0]?.parameters },
      },
    ]);
    expect(body).not.toHaveProperty("max_tokens");
    expect(body).not.toHaveProperty("max_completion_tokens");
  });

  it("sends max_tokens to compatible servers and max_completion_tokens to OpenAI", async () => {
    await client({ maxOutputTokens: 500 }).stream(request([user("hi")]));
    await client({ provider: "openai", maxOutputTokens: 500 }).stream(
      request([user("hi")], { maxOutputTokens: 300 }),
    );
    expect(sentBody(0)).toMatchObject({ max_tokens: 500 });
    expect(sentBody(1)).toMatchObject({ max_completion_tokens: 300 });
    expect(sentBody(1)).not.toHaveProperty("max_tokens");
  });

  it("merges the compaction block into the first user message", async () => {
    const body = await bodyFor({
      compaction: { type: "compaction", summary: "We fixed bug #3." },
      messages: [user("next step?")],
    });
    expect(body.messages).toHaveLength(2);
    expect(body.messages[1]?.role).toBe("user");
    expect(body.messages[1]?.content).toMatch(
      /^<conversation-summary>\nWe fixed bug #3.\n<\/conversation-summary>\n\nThe conversation so far was compacted[^\n]*\n\nnext step\?$/,
    );
  });

  it("gives the compaction block its own user message when the context starts with the assistant", async () => {
    const body = await bodyFor({
      compaction: { type: "compaction", summary: "S" },
      messages: [assistant([{ type: "text", text: "carrying on" }]), user("go")],
    });
    expect(body.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(body.messages[1]?.content).toContain("<conversation-summary>\nS\n");
  });

  it("answers every tool call with a tool message, in call order, even when results were split or lost", async () => {
    const body = await bodyFor({
      messages: [
        user("look around"),
        assistant(
          [
            { type: "text", text: "Looking." },
            { type: "tool-call", id: "call_1", name: "ls", arguments: {} },
            { type: "tool-call", id: "call_2", name: "read", arguments: { path: "a" } },
            { type: "tool-call", id: "call_3", name: "read", arguments: { path: "b" } },
          ],
          { stopReason: "tool-use" },
        ),
        {
          role: "tool",
          content: [toolResult("call_2", "read", "A")],
        },
        {
          role: "tool",
          content: [toolResult("call_1", "ls", "a b")],
        },
      ],
    });
    expect(body.messages.slice(2)).toEqual([
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } },
          { id: "call_2", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
          { id: "call_3", type: "function", function: { name: "read", arguments: '{"path":"b"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "a b" },
      { role: "tool", tool_call_id: "call_2", content: "A" },
      { role: "tool", tool_call_id: "call_3", content: MISSING_RESULT_TEXT },
    ]);
  });

  it("sends a tool output as the tool returned it, its first line's indentation and trailing newline included", async () => {
    const output = "    def parse(line):\n        return line.split(',')\n";
    const body = await bodyFor({
      messages: [
        user("show it"),
        assistant(
          [
            { type: "tool-call", id: "call_1", name: "read", arguments: { path: "a.py" } },
            { type: "tool-call", id: "call_2", name: "bash", arguments: { command: "true" } },
          ],
          { stopReason: "tool-use" },
        ),
        {
          role: "tool",
          content: [toolResult("call_1", "read", output), toolResult("call_2", "bash", " \n")],
        },
      ],
    });
    expect(body.messages.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: output },
      { role: "tool", tool_call_id: "call_2", content: "(no output)" },
    ]);
  });

  it("merges consecutive user messages into one", async () => {
    const body = await bodyFor({ messages: [user("first try"), user("second try")] });
    expect(body.messages).toEqual([
      { role: "system", content: "You are panto." },
      { role: "user", content: "first try\n\nsecond try" },
    ]);
  });

  it("sends user images as data URLs and moves tool-result images into a user message after the tool messages", async () => {
    const image = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };
    const url = "data:image/png;base64,iVBORw0KGgo=";
    const body = await bodyFor({
      messages: [
        { role: "user", content: [{ type: "text", text: "what is this?" }, image] },
        assistant([
          { type: "tool-call", id: "call_s", name: "screenshot", arguments: {} },
          { type: "tool-call", id: "call_t", name: "ls", arguments: {} },
        ]),
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "call_s",
              toolName: "screenshot",
              content: [{ type: "text", text: "captured" }, image],
              isError: false,
            },
            toolResult("call_t", "ls", "x"),
          ],
        },
        user("and now?"),
      ],
    });
    expect(body.messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "what is this?" },
        { type: "image_url", image_url: { url } },
      ],
    });
    expect(body.messages.slice(3).map((message) => message.role)).toEqual(["tool", "tool", "user"]);
    expect(body.messages[3]).toMatchObject({
      tool_call_id: "call_s",
      content: expect.stringMatching(/^captured\n\(1 image\(s\) attached/),
    });
    expect(body.messages[5]?.content).toEqual([
      { type: "text", text: "Images returned by the screenshot tool (call call_s):" },
      { type: "image_url", image_url: { url } },
      { type: "text", text: "and now?" },
    ]);
  });

  it("never sends thinking back, whichever API produced it", async () => {
    const body = await bodyFor({
      messages: [
        user("q1"),
        assistant([
          { type: "thinking", text: "private" },
          { type: "text", text: "a1" },
        ]),
        user("q2"),
        assistant([{ type: "thinking", text: "signed", signature: "sig" }], {
          provider: "anthropic",
          api: "anthropic-messages",
        }),
        user("q3"),
      ],
    });
    expect(JSON.stringify(body.messages)).not.toMatch(/private|signed/);
    expect(body.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(body.messages[3]?.content).toBe("q2\n\nq3");
  });
});

describe("fake OpenAI chat server", () => {
  it("answers a non-streaming request with a chat.completion and OpenAI-shaped usage", async () => {
    server.enqueue({ type: "text", text: "hi", usage: { input: 7, output: 3, cacheRead: 2 } });
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-x", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(await response.json()).toMatchObject({
      object: "chat.completion",
      model: "gpt-x",
      choices: [{ message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 9, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 2 } },
    });
  });

  it("streams no usage chunk unless the request asks for one", async () => {
    const response = await fetch(`${server.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-x", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const text = await response.text();
    expect(text).toContain('"finish_reason":"stop"');
    expect(text).not.toContain("prompt_tokens");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });
});
