import { createServer, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantMessage, ModelClient, ModelRequest, StreamEvent } from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import { jsonArrayElements } from "../../src/providers/google-gemini/json-array-elements.js";
import { createOpenAIChatClient } from "../../src/providers/openai-chat/index.js";
import { createOpenAIResponsesClient } from "../../src/providers/openai-responses/index.js";
import { readSseEvents, type SseEvent } from "../../src/providers/shared/index.js";

/*
 * Legitimate wire behaviours that differ from our own fake servers: what another fake written from
 * the public docs, or a real compatible server (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter,
 * proxies), may send. Each server here is hand-rolled on node:http and writes raw bytes, so none of
 * our simulator's habits leak in.
 */

interface RecordedWireRequest {
  path: string;
  body: Record<string, unknown>;
}

interface WireServer {
  /** http://127.0.0.1:PORT, without any path. */
  readonly origin: string;
  readonly requests: RecordedWireRequest[];
  close(): Promise<void>;
}

/** How one request is answered; `res` is left to the handler (it may keep the response open). */
type Respond = (res: ServerResponse, request: RecordedWireRequest) => void;

let open: WireServer | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function startWireServer(respond: Respond): Promise<WireServer> {
  const requests: RecordedWireRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const request = {
        path: req.url ?? "/",
        body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(request);
      respond(res, request);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  open = {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return open;
}

/**
 * Answers every request with this body, then ends (unless `keepOpen`). In one piece it goes out
 * with a content-length, as most servers send a JSON answer; in several, chunked.
 */
function replyWith(
  body: string,
  options: { contentType?: string; keepOpen?: boolean; pieces?: number } = {},
): Respond {
  return (res) => {
    const bytes = Buffer.from(body, "utf8");
    const pieces = options.pieces ?? 1;
    const contentType = options.contentType ?? "text/event-stream";
    if (pieces === 1 && options.keepOpen !== true) {
      res.writeHead(200, { "content-type": contentType, "content-length": String(bytes.length) });
      res.end(bytes);
      return;
    }
    res.writeHead(200, { "content-type": contentType });
    const size = Math.ceil(bytes.length / pieces);
    for (let start = 0; start < bytes.length; start += size) res.write(bytes.subarray(start, start + size));
    if (options.keepOpen !== true) res.end();
  };
}

interface SseFormat {
  /** Line ending; "\r\n" for servers on Windows stacks or behind some proxies. */
  eol?: string;
  /** "data: " as documented, or "data:" as some servers write it. */
  dataPrefix?: string;
  /** An `event:` line naming the payload's `type` before each data line. */
  eventLines?: boolean;
  /** A comment line (": keep-alive") before every event. */
  comments?: boolean;
  /** The OpenAI terminator `data: [DONE]` after the events. */
  done?: boolean;
}

/** Serialises payloads as server-sent events the way the format options say. */
function sse(payloads: unknown[], format: SseFormat = {}): string {
  const eol = format.eol ?? "\n";
  const prefix = format.dataPrefix ?? "data: ";
  const events = payloads.map((payload) => {
    const lines: string[] = [];
    if (format.comments === true) lines.push(": keep-alive");
    const type = (payload as { type?: unknown }).type;
    if (format.eventLines === true && typeof type === "string") lines.push(`event: ${type}`);
    lines.push(`${prefix}${typeof payload === "string" ? payload : JSON.stringify(payload)}`);
    return lines.join(eol) + eol + eol;
  });
  if (format.done === true) events.push(`${prefix}[DONE]${eol}${eol}`);
  return events.join("");
}

const hello: Omit<ModelRequest, "model"> = {
  systemPrompt: "You are panto.",
  context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
  tools: [],
};

/**
 * No retries (a variant that breaks must fail at once) and a short idle timeout (one that hangs).
 * Tests of servers that keep the connection open after the answer use `HOLD_OPEN` instead: an idle
 * timeout far beyond the test's own, so only stopping at the terminal event can pass them.
 */
function adapterOptions(baseURL: string, extra: Partial<AdapterOptions> = {}): AdapterOptions {
  return {
    provider: "local",
    model: "m",
    apiKey: "k",
    baseURL,
    retry: { maxRetries: 0 },
    idleTimeoutMs: 3000,
    ...extra,
  };
}

const HOLD_OPEN: Partial<AdapterOptions> = { idleTimeoutMs: 600_000 };

async function run(client: ModelClient): Promise<{ message: AssistantMessage; events: StreamEvent[] }> {
  const events: StreamEvent[] = [];
  const message = await client.stream(hello, { onEvent: (event) => events.push(event) });
  return { message, events };
}

async function rejection(promise: Promise<unknown>): Promise<PantoError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PantoError);
  return error as PantoError;
}

const textsOf = (events: StreamEvent[]): string =>
  events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------------------------

const chat = (server: WireServer, extra: Partial<AdapterOptions> = {}): ModelClient =>
  createOpenAIChatClient(adapterOptions(`${server.origin}/v1`, extra));

function chatChunk(
  delta: Record<string, unknown> | undefined,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: delta === undefined ? [] : [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
}

describe("OpenAI chat wire variants", () => {
  it("reads a stream without any usage chunk, from a server that ignores stream_options: usage stays undefined", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({ role: "assistant", content: "Hel" }),
            chatChunk({ content: "lo" }),
            chatChunk({}, "stop"),
          ],
          { done: true },
        ),
      ),
    );
    const { message, events } = await run(chat(server));
    expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
    expect(message.content).toEqual([{ type: "text", text: "Hello" }]);
    expect(message.stopReason).toBe("stop");
    expect(message.usage).toBeUndefined();
    expect("usage" in message).toBe(false);
    expect(textsOf(events)).toBe("Hello");
  });

  it("takes finish_reason from the chunk that also carries the last content", async () => {
    const server = await startWireServer(
      replyWith(
        sse([chatChunk({ content: "Hi " }), chatChunk({ content: "there" }, "length")], { done: true }),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "Hi there" }]);
    expect(message.stopReason).toBe("length");
  });

  it("takes usage from the last chunk when it also carries choices and the finish_reason", async () => {
    const last = chatChunk({ content: "!" }, "stop", {
      usage: { prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 },
    });
    const server = await startWireServer(
      replyWith(sse([chatChunk({ content: "ok" }), last], { done: true })),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "ok!" }]);
    expect(message.usage).toEqual({ promptTokens: 20, outputTokens: 3, resentOutputTokens: 3 });
  });

  it("reads `usage: null` on every chunk and the figures in a choices-less last chunk", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({ content: "a" }, null, { usage: null }),
            chatChunk({}, "stop", { usage: null }),
            chatChunk(undefined, null, { usage: { prompt_tokens: 5, completion_tokens: 1 } }),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.usage).toEqual({ promptTokens: 5, outputTokens: 1, resentOutputTokens: 1 });
  });

  it("turns a non-streamed chat.completion (stream: true ignored) into a normal message", async () => {
    const completion = {
      id: "chatcmpl-2",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
            ],
          },
          logprobs: null,
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 9, completion_tokens: 7, total_tokens: 16 },
    };
    const server = await startWireServer(
      replyWith(JSON.stringify(completion), { contentType: "application/json; charset=utf-8" }),
    );
    const { message, events } = await run(chat(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: "call_1", name: "read", arguments: { path: "a.ts" } },
    ]);
    expect(message.stopReason).toBe("tool-use");
    expect(message.usage).toEqual({ promptTokens: 9, outputTokens: 7, resentOutputTokens: 7 });
    expect(events.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-end"]);
  });

  it("reads a JSON completion even when the server labels it text/plain", async () => {
    const completion = {
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content: "plain" }, finish_reason: "stop" }],
    };
    const server = await startWireServer(
      replyWith(`\n${JSON.stringify(completion)}`, { contentType: "text/plain" }),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "plain" }]);
    expect(message.usage).toBeUndefined();
  });

  it("reads a whole chat.completion sent as the one event of a stream", async () => {
    const completion = {
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: "Both.",
            tool_calls: [
              { id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
              { id: "c2", type: "function", function: { name: "read", arguments: '{"path":"b"}' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 4, completion_tokens: 2 },
    };
    const server = await startWireServer(replyWith(sse([completion], { done: true })));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([
      { type: "text", text: "Both." },
      { type: "tool-call", id: "c1", name: "read", arguments: { path: "a" } },
      { type: "tool-call", id: "c2", name: "read", arguments: { path: "b" } },
    ]);
    expect(message.usage).toEqual({ promptTokens: 4, outputTokens: 2, resentOutputTokens: 2 });
  });

  it("reads an event stream mislabelled application/json, and JSON behind a byte-order mark", async () => {
    const stream = sse([chatChunk({ content: "mislabelled" }), chatChunk({}, "stop")], { done: true });
    const server = await startWireServer(replyWith(stream, { contentType: "application/json" }));
    expect((await run(chat(server))).message.content).toEqual([{ type: "text", text: "mislabelled" }]);
    await server.close();
    const completion = { choices: [{ message: { content: "bom" }, finish_reason: "stop" }] };
    const bom = await startWireServer(
      replyWith(`\uFEFF${JSON.stringify(completion)}`, { contentType: "application/json" }),
    );
    expect((await run(chat(bom))).message.content).toEqual([{ type: "text", text: "bom" }]);
  });

  it("skips chunks with `choices: []` before the first delta (Azure's prompt filter results)", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk(undefined, null, { prompt_filter_results: [{ prompt_index: 0 }] }),
            chatChunk(undefined),
            chatChunk({ role: "assistant", content: "" }),
            chatChunk({ content: "fine" }),
            chatChunk({}, "stop"),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "fine" }]);
  });

  it("reads `role` only in the first delta and `content: null` deltas as no text", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({ role: "assistant", content: null }),
            chatChunk({ content: "one" }),
            chatChunk({ content: null }),
            chatChunk({ content: " two" }),
            chatChunk({ content: null }, "stop"),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "one two" }]);
    expect(message.stopReason).toBe("stop");
  });

  it("joins tool-call arguments split over many chunks with the id and name only in the first", async () => {
    const fragments = ['{"pa', 'th": ', '"src/', 'a.ts"', "}"];
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({
              role: "assistant",
              content: null,
              tool_calls: [
                { index: 0, id: "call_a", type: "function", function: { name: "read", arguments: "" } },
              ],
            }),
            ...fragments.map((part) =>
              chatChunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }),
            ),
            chatChunk({
              tool_calls: [
                { index: 1, id: "call_b", type: "function", function: { name: "ls", arguments: "{}" } },
              ],
            }),
            chatChunk({}, "tool_calls"),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: "call_a", name: "read", arguments: { path: "src/a.ts" } },
      { type: "tool-call", id: "call_b", name: "ls", arguments: {} },
    ]);
    expect(message.stopReason).toBe("tool-use");
  });

  it("tells tool calls apart when `index` is missing: fragments extend the open call, a new id starts one", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({
              tool_calls: [{ id: "call_a", type: "function", function: { name: "read", arguments: "" } }],
            }),
            chatChunk({ tool_calls: [{ function: { arguments: '{"path":' } }] }),
            chatChunk({ tool_calls: [{ function: { arguments: '"a.ts"}' } }] }),
            chatChunk({
              tool_calls: [{ id: "call_b", type: "function", function: { name: "ls", arguments: "" } }],
            }),
            chatChunk({ tool_calls: [{ function: { arguments: '{"dir":"."}' } }] }),
            chatChunk({}, "tool_calls"),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: "call_a", name: "read", arguments: { path: "a.ts" } },
      { type: "tool-call", id: "call_b", name: "ls", arguments: { dir: "." } },
    ]);
  });

  it("tells whole tool calls apart when neither `index` nor `id` is sent", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({
              tool_calls: [
                { type: "function", function: { name: "read", arguments: '{"path":"a"}' } },
                { type: "function", function: { name: "read", arguments: '{"path":"b"}' } },
              ],
            }),
            chatChunk({}, "tool_calls"),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    const calls = message.content.filter((block) => block.type === "tool-call");
    expect(calls.map((call) => call.arguments)).toEqual([{ path: "a" }, { path: "b" }]);
    expect(new Set(calls.map((call) => call.id)).size).toBe(2);
  });

  it("reads Mistral-style content parts: thinking parts as thinking, text parts as text", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk({
              role: "assistant",
              content: [{ type: "thinking", thinking: [{ type: "text", text: "Let me see." }] }],
            }),
            chatChunk({ content: [{ type: "text", text: "Answer" }] }),
            chatChunk({ content: "." }, "stop"),
          ],
          { done: true },
        ),
      ),
    );
    const { message, events } = await run(chat(server));
    expect(message.content).toEqual([
      { type: "thinking", text: "Let me see." },
      { type: "text", text: "Answer." },
    ]);
    expect(textsOf(events)).toBe("Answer.");
  });

  it("accepts tool-call arguments sent as an object instead of JSON text", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            chatChunk(
              {
                tool_calls: [
                  {
                    index: 0,
                    id: "c1",
                    type: "function",
                    function: { name: "ls", arguments: { dir: "src" } },
                  },
                ],
              },
              "tool_calls",
            ),
          ],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "tool-call", id: "c1", name: "ls", arguments: { dir: "src" } }]);
  });

  it("ends a stream that sends [DONE] but never a finish_reason as a normal stop", async () => {
    const server = await startWireServer(
      replyWith(
        sse([chatChunk({ role: "assistant", content: "all" }), chatChunk({ content: " done" })], {
          done: true,
        }),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "all done" }]);
    expect(message.stopReason).toBe("stop");
  });

  it("ends tool calls followed by [DONE] without a finish_reason as tool-use", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "ls", arguments: "{}" } }] })],
          { done: true },
        ),
      ),
    );
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "tool-call", id: "c1", name: "ls", arguments: {} }]);
    expect(message.stopReason).toBe("tool-use");
  });

  it("still fails as a retryable network error when the stream closes with neither [DONE] nor a finish_reason", async () => {
    const server = await startWireServer(replyWith(sse([chatChunk({ content: "half an ans" })])));
    const error = await rejection(chat(server).stream(hello));
    expect(error.code).toBe("network");
    expect(error.retryable).toBe(true);
  });

  it("treats [DONE] after nothing at all as a cut-off answer, not an empty success", async () => {
    const server = await startWireServer(replyWith(sse([chatChunk({ role: "assistant" })], { done: true })));
    const error = await rejection(chat(server).stream(hello));
    expect(error.code).toBe("network");
  });

  it("parses `data:` without a space, CRLF line endings and `: keep-alive` comments", async () => {
    const body = sse(
      [
        chatChunk({ role: "assistant", content: "crlf " }),
        chatChunk({ content: "ok" }),
        chatChunk({}, "stop"),
      ],
      { eol: "\r\n", dataPrefix: "data:", comments: true, done: true },
    );
    const server = await startWireServer(replyWith(`: hello${"\r\n\r\n"}${body}`));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "crlf ok" }]);
  });

  it("reassembles events split at arbitrary bytes, multi-byte characters included", async () => {
    const body = sse(
      [chatChunk({ content: "héllo wörld, 日本語 ✓" }), chatChunk({ content: " 🎉" }), chatChunk({}, "stop")],
      { eol: "\r\n", done: true },
    );
    const server = await startWireServer(replyWith(body, { pieces: 37 }));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "héllo wörld, 日本語 ✓ 🎉" }]);
  });

  it("resolves at [DONE] even when the server keeps the connection open afterwards", async () => {
    const server = await startWireServer(
      replyWith(sse([chatChunk({ content: "kept open" }), chatChunk({}, "stop")], { done: true }), {
        keepOpen: true,
      }),
    );
    const { message } = await run(chat(server, HOLD_OPEN));
    expect(message.content).toEqual([{ type: "text", text: "kept open" }]);
  });

  it("keeps a finished answer when the server then holds the connection open without [DONE]", async () => {
    const server = await startWireServer(
      replyWith(sse([chatChunk({ content: "finished" }), chatChunk({}, "stop")]), { keepOpen: true }),
    );
    const { message } = await run(chat(server, { idleTimeoutMs: 300 }));
    expect(message.content).toEqual([{ type: "text", text: "finished" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("accepts a last event that lacks its closing blank line", async () => {
    const body = `${sse([chatChunk({ content: "tail" }), chatChunk({}, "stop")])}data: [DONE]`;
    const server = await startWireServer(replyWith(body));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "tail" }]);
  });

  it("ignores an `event:` line a proxy adds to each chunk", async () => {
    const body = sse([chatChunk({ content: "named" }), chatChunk({}, "stop")], { done: true }).replaceAll(
      "data: {",
      "event: message\ndata: {",
    );
    const server = await startWireServer(replyWith(body));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "named" }]);
  });

  it("still classifies an error object sent inside a 200 stream", async () => {
    const body = sse([
      chatChunk({ content: "par" }),
      {
        error: {
          message: "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens.",
          code: 400,
        },
      },
    ]);
    const server = await startWireServer(replyWith(body));
    const error = await rejection(chat(server).stream(hello));
    expect(error.code).toBe("context_overflow");
  });
});

// ---------------------------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------------------------

const anthropic = (server: WireServer, extra: Partial<AdapterOptions> = {}): ModelClient =>
  createAnthropicClient(adapterOptions(server.origin, extra));

const messageStart = (usage: Record<string, unknown> = { input_tokens: 25, output_tokens: 1 }) => ({
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "m",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  },
});
const textBlock = (index: number, text: string) => [
  { type: "content_block_start", index, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index, delta: { type: "text_delta", text } },
  { type: "content_block_stop", index },
];
const messageDelta = (stopReason: string, usage?: Record<string, unknown>) => ({
  type: "message_delta",
  delta: { stop_reason: stopReason, stop_sequence: null },
  ...(usage === undefined ? {} : { usage }),
});
const messageStop = { type: "message_stop" };

describe("Anthropic wire variants", () => {
  it("reads message_start usage that has no cache fields", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            ...textBlock(0, "hi"),
            messageDelta("end_turn", { output_tokens: 4 }),
            messageStop,
          ],
          {
            eventLines: true,
          },
        ),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.usage).toEqual({ promptTokens: 25, outputTokens: 4, resentOutputTokens: 4 });
  });

  it("keeps message_start's figures when message_delta carries no usage", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart({ input_tokens: 12, output_tokens: 6 }),
            ...textBlock(0, "hi"),
            messageDelta("end_turn"),
            messageStop,
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "hi" }]);
    expect(message.usage).toEqual({ promptTokens: 12, outputTokens: 6, resentOutputTokens: 6 });
  });

  it("skips ping events and events of unknown types", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            { type: "ping" },
            ...textBlock(0, "pong"),
            { type: "message_annotation", data: { anything: true } },
            { type: "content_block_delta", index: 0, delta: { type: "citations_delta", citation: {} } },
            { type: "ping" },
            messageDelta("end_turn", { output_tokens: 2 }),
            messageStop,
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "pong" }]);
    expect(message.stopReason).toBe("stop");
  });

  it("turns a non-streamed message (stream: true ignored) into a normal message", async () => {
    const whole = {
      id: "msg_2",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        { type: "thinking", thinking: "look first", signature: "sig" },
        { type: "text", text: "Reading it." },
        { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a.ts" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 30, output_tokens: 12, cache_read_input_tokens: 10 },
    };
    const server = await startWireServer(
      replyWith(JSON.stringify(whole), { contentType: "application/json" }),
    );
    const { message, events } = await run(anthropic(server));
    expect(message.content).toEqual([
      { type: "thinking", text: "look first", signature: "sig" },
      { type: "text", text: "Reading it." },
      { type: "tool-call", id: "toolu_1", name: "read", arguments: { path: "a.ts" } },
    ]);
    expect(message.stopReason).toBe("tool-use");
    expect(message.usage).toEqual({
      promptTokens: 40,
      outputTokens: 12,
      resentOutputTokens: 12,
      cacheReadTokens: 10,
    });
    expect(textsOf(events)).toBe("Reading it.");
  });

  it("still classifies an error object sent as a 200 JSON body", async () => {
    const server = await startWireServer(
      replyWith('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {
        contentType: "application/json",
      }),
    );
    const error = await rejection(anthropic(server).stream(hello));
    expect(error.code).toBe("overloaded");
  });

  it("reads an event stream mislabelled application/json as the stream it is", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            ...textBlock(0, "labelled"),
            messageDelta("end_turn", { output_tokens: 1 }),
            messageStop,
          ],
          {
            eventLines: true,
          },
        ),
        { contentType: "application/json" },
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "labelled" }]);
  });

  it("keeps the initial text of a content_block_start", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hello" } },
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: ", world" } },
            { type: "content_block_stop", index: 0 },
            messageDelta("end_turn", { output_tokens: 3 }),
            messageStop,
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message, events } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "Hello, world" }]);
    expect(textsOf(events)).toBe("Hello, world");
  });

  it("takes a tool call's input from content_block_start when no input_json_delta follows", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            {
              type: "content_block_start",
              index: 0,
              content_block: { type: "tool_use", id: "toolu_2", name: "ls", input: { dir: "src" } },
            },
            { type: "content_block_stop", index: 0 },
            messageDelta("tool_use", { output_tokens: 3 }),
            messageStop,
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: "toolu_2", name: "ls", arguments: { dir: "src" } },
    ]);
  });

  it("reads text deltas whose block was never announced by content_block_start", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "unannounced" } },
            messageDelta("end_turn", { output_tokens: 1 }),
            messageStop,
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "unannounced" }]);
  });

  it("reads events sent as bare `data:` lines without `event:` lines", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          messageStart(),
          ...textBlock(0, "bare"),
          messageDelta("end_turn", { output_tokens: 1 }),
          messageStop,
        ]),
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "bare" }]);
  });

  it("parses CRLF line endings, `data:` without a space and comment lines", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            ...textBlock(0, "crlf"),
            messageDelta("end_turn", { output_tokens: 1 }),
            messageStop,
          ],
          {
            eol: "\r\n",
            dataPrefix: "data:",
            comments: true,
            eventLines: true,
          },
        ),
        { pieces: 23 },
      ),
    );
    const { message } = await run(anthropic(server));
    expect(message.content).toEqual([{ type: "text", text: "crlf" }]);
  });

  it("resolves at message_stop even when the server keeps the connection open afterwards", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            messageStart(),
            ...textBlock(0, "open"),
            messageDelta("end_turn", { output_tokens: 1 }),
            messageStop,
          ],
          {
            eventLines: true,
          },
        ),
        { keepOpen: true },
      ),
    );
    const { message } = await run(anthropic(server, HOLD_OPEN));
    expect(message.content).toEqual([{ type: "text", text: "open" }]);
  });

  it("still classifies an error event inside the stream, with or without its `event:` line", async () => {
    const overflow = {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" },
    };
    for (const eventLines of [true, false]) {
      const server = await startWireServer(replyWith(sse([messageStart(), overflow], { eventLines })));
      const error = await rejection(anthropic(server).stream(hello));
      expect(error.code).toBe("context_overflow");
      await server.close();
    }
  });

  it("still fails as a network error when the stream ends before message_stop", async () => {
    const server = await startWireServer(
      replyWith(sse([messageStart(), ...textBlock(0, "cut")], { eventLines: true })),
    );
    const error = await rejection(anthropic(server).stream(hello));
    expect(error.code).toBe("network");
  });
});

// ---------------------------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------------------------

const responses = (server: WireServer, extra: Partial<AdapterOptions> = {}): ModelClient =>
  createOpenAIResponsesClient(adapterOptions(`${server.origin}/v1`, extra));

function responseObject(
  output: unknown[],
  extra: Record<string, unknown> = { usage: { input_tokens: 15, output_tokens: 5 } },
): Record<string, unknown> {
  return {
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    model: "m",
    output,
    ...extra,
  };
}
const messageItem = (text: string) => ({
  type: "message",
  id: "msg_1",
  status: "completed",
  role: "assistant",
  content: [{ type: "output_text", text, annotations: [] }],
});
const functionCallItem = (callId: string, name: string, args: string) => ({
  type: "function_call",
  id: `fc_${callId}`,
  call_id: callId,
  name,
  arguments: args,
  status: "completed",
});

describe("OpenAI Responses wire variants", () => {
  it("reads the minimal sequence: output_text deltas and response.completed, no response.created", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          {
            type: "response.output_text.delta",
            item_id: "msg_1",
            output_index: 0,
            content_index: 0,
            delta: "Hi ",
          },
          {
            type: "response.output_text.delta",
            item_id: "msg_1",
            output_index: 0,
            content_index: 0,
            delta: "you",
          },
          { type: "response.completed", response: responseObject([]) },
        ]),
      ),
    );
    const { message, events } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "Hi you" }]);
    expect(message.usage).toEqual({ promptTokens: 15, outputTokens: 5, resentOutputTokens: 5 });
    expect(textsOf(events)).toBe("Hi you");
  });

  it("takes the output from response.completed when no deltas were streamed", async () => {
    const output = [
      messageItem("From the final object."),
      functionCallItem("call_9", "read", '{"path":"x"}'),
    ];
    const server = await startWireServer(
      replyWith(
        sse(
          [
            {
              type: "response.created",
              response: responseObject([], { status: "in_progress", usage: null }),
            },
            { type: "response.completed", response: responseObject(output) },
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message, events } = await run(responses(server));
    expect(message.content).toEqual([
      { type: "text", text: "From the final object." },
      { type: "tool-call", id: "call_9", name: "read", arguments: { path: "x" } },
    ]);
    expect(message.stopReason).toBe("tool-use");
    expect(textsOf(events)).toBe("From the final object.");
    expect(events.filter((event) => event.type === "tool-call-end")).toHaveLength(1);
  });

  it("takes the text from response.output_text.done when no deltas preceded it", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          {
            type: "response.output_text.done",
            item_id: "m",
            output_index: 0,
            content_index: 0,
            text: "whole text",
          },
          { type: "response.completed", response: responseObject([]) },
        ]),
      ),
    );
    const { message, events } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "whole text" }]);
    expect(textsOf(events)).toBe("whole text");
  });

  it("takes a call's arguments from function_call_arguments.done, or from the final output, when no deltas came", async () => {
    const added = (index: number, callId: string) => ({
      type: "response.output_item.added",
      output_index: index,
      item: { ...functionCallItem(callId, "read", ""), status: "in_progress" },
    });
    const server = await startWireServer(
      replyWith(
        sse([
          added(0, "c1"),
          {
            type: "response.function_call_arguments.done",
            item_id: "fc_c1",
            output_index: 0,
            arguments: '{"path":"a"}',
          },
          added(1, "c2"),
          {
            type: "response.completed",
            response: responseObject([
              functionCallItem("c1", "read", '{"path":"a"}'),
              functionCallItem("c2", "read", '{"path":"b"}'),
            ]),
          },
        ]),
      ),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: "c1", name: "read", arguments: { path: "a" } },
      { type: "tool-call", id: "c2", name: "read", arguments: { path: "b" } },
    ]);
  });

  it("reads message parts typed `text` (not `output_text`) in the final output", async () => {
    const item = { ...messageItem(""), content: [{ type: "text", text: "loosely typed" }] };
    const server = await startWireServer(
      replyWith(sse([{ type: "response.completed", response: responseObject([item]) }])),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "loosely typed" }]);
  });

  it("ignores event types it does not know", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            { type: "response.queued", response: responseObject([], { status: "queued" }) },
            {
              type: "response.output_text.delta",
              item_id: "m",
              output_index: 0,
              content_index: 0,
              delta: "known",
            },
            { type: "response.output_text.annotation.added", output_index: 0, annotation: {} },
            { type: "response.some_future_event", payload: [1, 2, 3] },
            { type: "response.completed", response: responseObject([messageItem("known")]) },
          ],
          { eventLines: true },
        ),
      ),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "known" }]);
  });

  it("turns a non-streamed response object (stream: true ignored) into a normal message", async () => {
    const body = responseObject(
      [
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Plan." }] },
        messageItem("Whole answer."),
      ],
      { usage: { input_tokens: 40, output_tokens: 9, output_tokens_details: { reasoning_tokens: 4 } } },
    );
    const server = await startWireServer(
      replyWith(JSON.stringify(body), { contentType: "application/json" }),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([
      { type: "thinking", text: "Plan.", signature: "rs_1" },
      { type: "text", text: "Whole answer." },
    ]);
    expect(message.stopReason).toBe("stop");
    expect(message.usage).toEqual({
      promptTokens: 40,
      outputTokens: 9,
      resentOutputTokens: 5,
      reasoningTokens: 4,
    });
  });

  it("reads a non-streamed response cut off by its output limit as length", async () => {
    const body = responseObject([messageItem("Trunc")], {
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      usage: { input_tokens: 3, output_tokens: 2 },
    });
    const server = await startWireServer(
      replyWith(JSON.stringify(body), { contentType: "application/json" }),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "Trunc" }]);
    expect(message.stopReason).toBe("length");
  });

  it("still classifies an error object sent as a 200 JSON body", async () => {
    const server = await startWireServer(
      replyWith(
        JSON.stringify({
          error: {
            message:
              "Your input exceeds the context window of this model. Please adjust your input and try again.",
            type: "invalid_request_error",
            code: "context_length_exceeded",
          },
        }),
        { contentType: "application/json" },
      ),
    );
    const error = await rejection(responses(server).stream(hello));
    expect(error.code).toBe("context_overflow");
  });

  it("parses CRLF, `data:` without a space and comments, and resolves though the server keeps the connection open", async () => {
    const server = await startWireServer(
      replyWith(
        sse(
          [
            {
              type: "response.output_text.delta",
              item_id: "m",
              output_index: 0,
              content_index: 0,
              delta: "ok",
            },
            { type: "response.completed", response: responseObject([]) },
          ],
          { eol: "\r\n", dataPrefix: "data:", comments: true, eventLines: true },
        ),
        { keepOpen: true, pieces: 7 },
      ),
    );
    const { message } = await run(responses(server, HOLD_OPEN));
    expect(message.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("still fails as a network error when the stream ends before response.completed", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          { type: "response.output_text.delta", item_id: "m", output_index: 0, content_index: 0, delta: "x" },
        ]),
      ),
    );
    const error = await rejection(responses(server).stream(hello));
    expect(error.code).toBe("network");
  });
});

// ---------------------------------------------------------------------------------------------
// Google Gemini
// ---------------------------------------------------------------------------------------------

const gemini = (server: WireServer): ModelClient =>
  createGeminiClient(adapterOptions(server.origin, { provider: "google", model: "gemini-2.5-flash" }));

function geminiChunk(
  parts: unknown[] | undefined,
  extra: { finishReason?: string; usageMetadata?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const { finishReason, usageMetadata } = extra;
  return {
    candidates: [
      {
        ...(parts === undefined ? {} : { content: { role: "model", parts } }),
        ...(finishReason === undefined ? {} : { finishReason }),
        index: 0,
      },
    ],
    ...(usageMetadata === undefined ? {} : { usageMetadata }),
    modelVersion: "gemini-2.5-flash",
  };
}

describe("Gemini wire variants", () => {
  it("reads chunks without usageMetadata: usage stays undefined", async () => {
    const server = await startWireServer(
      replyWith(
        sse([geminiChunk([{ text: "no " }]), geminiChunk([{ text: "usage" }], { finishReason: "STOP" })]),
      ),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "no usage" }]);
    expect(message.usage).toBeUndefined();
  });

  it("ends on a final chunk that carries only the finishReason", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          geminiChunk([{ text: "body" }]),
          geminiChunk(undefined, {
            finishReason: "STOP",
            usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 1, totalTokenCount: 9 },
          }),
        ]),
      ),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "body" }]);
    expect(message.stopReason).toBe("stop");
    expect(message.usage).toEqual({ promptTokens: 8, outputTokens: 1, resentOutputTokens: 1 });
  });

  it("gives a functionCall without an id a stable synthetic one", async () => {
    const server = await startWireServer(
      replyWith(
        sse([geminiChunk([{ functionCall: { name: "ls", args: { dir: "." } } }], { finishReason: "STOP" })]),
      ),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([
      { type: "tool-call", id: expect.stringMatching(/ls/), name: "ls", arguments: { dir: "." } },
    ]);
    expect(message.stopReason).toBe("tool-use");
  });

  it("reads the JSON-array body of streamGenerateContent without alt=sse", async () => {
    const chunks = [
      geminiChunk([{ text: "array " }]),
      geminiChunk([{ text: "body" }], {
        finishReason: "STOP",
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 2 },
      }),
    ];
    // The real API pretty-prints the array and streams it element by element.
    const body = `[${chunks.map((chunk) => JSON.stringify(chunk, null, 2)).join("\r\n,\r\n")}]`;
    const server = await startWireServer(
      replyWith(body, { contentType: "application/json; charset=UTF-8", pieces: 9 }),
    );
    const { message, events } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "array body" }]);
    expect(message.usage).toEqual({ promptTokens: 4, outputTokens: 2, resentOutputTokens: 2 });
    expect(textsOf(events)).toBe("array body");
  });

  it("classifies an error object inside a JSON-array body, numeric code or not", async () => {
    const overflow = {
      error: {
        message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
        status: "INVALID_ARGUMENT",
      },
    };
    const server = await startWireServer(
      replyWith(JSON.stringify([overflow]), { contentType: "application/json" }),
    );
    const error = await rejection(gemini(server).stream(hello));
    expect(error.code).toBe("context_overflow");
  });

  it("reads a single non-streamed generateContent response", async () => {
    const body = geminiChunk([{ text: "one shot" }], {
      finishReason: "STOP",
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 },
    });
    const server = await startWireServer(
      replyWith(JSON.stringify(body), { contentType: "application/json" }),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "one shot" }]);
  });

  it("parses CRLF line endings, `data:` without a space, comments and `event:` lines", async () => {
    const server = await startWireServer(
      replyWith(
        sse([geminiChunk([{ text: "cr" }]), geminiChunk([{ text: "lf" }], { finishReason: "STOP" })], {
          eol: "\r\n",
          dataPrefix: "data:",
          comments: true,
        }).replaceAll("data:", "event: message\r\ndata:"),
        { pieces: 11 },
      ),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "crlf" }]);
  });

  it("keeps a finished answer when the server then holds the connection open", async () => {
    const server = await startWireServer(
      replyWith(sse([geminiChunk([{ text: "held" }], { finishReason: "STOP" })]), { keepOpen: true }),
    );
    const { message } = await run(
      createGeminiClient(adapterOptions(server.origin, { model: "gemini-2.5-flash", idleTimeoutMs: 300 })),
    );
    expect(message.content).toEqual([{ type: "text", text: "held" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("still classifies an error payload inside the stream", async () => {
    const server = await startWireServer(
      replyWith(
        sse([
          geminiChunk([{ text: "x" }]),
          {
            error: {
              code: 400,
              message:
                "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
              status: "INVALID_ARGUMENT",
            },
          },
        ]),
      ),
    );
    const error = await rejection(gemini(server).stream(hello));
    expect(error.code).toBe("context_overflow");
  });

  it("still fails as a network error when the stream ends before any finishReason", async () => {
    const server = await startWireServer(replyWith(sse([geminiChunk([{ text: "cut" }])])));
    const error = await rejection(gemini(server).stream(hello));
    expect(error.code).toBe("network");
  });
});

// ---------------------------------------------------------------------------------------------
// The parsers under the adapters
// ---------------------------------------------------------------------------------------------

/** A body that arrives in exactly these pieces. */
function bodyOf(pieces: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) collected.push(item);
  return collected;
}

describe("readSseEvents", () => {
  it("reads CR-only line endings and a CRLF split across two reads as one line break", async () => {
    const events = await collect(readSseEvents(bodyOf(["data: a\r", "\n\r", "\ndata: b\r\rdata: c\r\r"])));
    expect(events.map((event) => event.data)).toEqual(["a", "b", "c"]);
  });

  it("joins multi-line data, keeps the event name for its own event only, and skips data-less events", async () => {
    const events = await collect(
      readSseEvents(
        bodyOf(["event: ping\n\n", 'event: delta\ndata: {\ndata:  "x": 1}\n\n', "data: plain\n\n"]),
      ),
    );
    expect(events).toEqual<SseEvent[]>([{ event: "delta", data: '{\n "x": 1}' }, { data: "plain" }]);
  });

  it("ignores a byte-order mark, comments and unknown fields, and dispatches an unterminated last event", async () => {
    const events = await collect(
      readSseEvents(bodyOf(["\uFEFF: hi\nid: 7\nretry: 10\ndata: one\n\ndata: two"])),
    );
    expect(events.map((event) => event.data)).toEqual(["one", "two"]);
  });
});

describe("jsonArrayElements", () => {
  const tricky = [
    { text: 'braces } ] { [ and "quotes" and \\ backslashes' },
    { nested: { list: [1, [2, { a: "]" }]] } },
  ];

  it("yields each element whole, whatever its strings hold, however the bytes are split", async () => {
    const text = `[\n${tricky.map((element) => JSON.stringify(element, null, 2)).join("\r\n,\r\n")}\n]`;
    const pieces = [...text].map((char) => char);
    const elements = await collect(jsonArrayElements(bodyOf(pieces)));
    expect(elements.map((element) => JSON.parse(element) as unknown)).toEqual(tricky);
  });

  it("yields a root object as the one element, and drops an element cut off by the end", async () => {
    expect(await collect(jsonArrayElements(bodyOf([JSON.stringify(tricky[0])])))).toHaveLength(1);
    const cut = `[${JSON.stringify(tricky[0])},{"candidates":[{"content"`;
    const elements = await collect(jsonArrayElements(bodyOf([cut])));
    expect(elements.map((element) => JSON.parse(element) as unknown)).toEqual([tricky[0]]);
  });
});
