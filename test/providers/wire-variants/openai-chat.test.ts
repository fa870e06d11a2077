import { describe, expect, it } from "vitest";
import { createOpenAIChatClient } from "../../../src/providers/openai-chat/index.js";
import { rejection } from "../../support/adapter-harness.js";
import { HOLD_OPEN, hello, replyWith, run, sse, startWire, textsOf, wireClient } from "./wire-server.js";

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions
// ---------------------------------------------------------------------------------------------

const chat = wireClient(createOpenAIChatClient, "/v1");

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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(replyWith(sse([chatChunk({ content: "ok" }), last], { done: true })));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "ok!" }]);
    expect(message.usage).toEqual({ promptTokens: 20, outputTokens: 3, resentOutputTokens: 3 });
  });

  it("reads `usage: null` on every chunk and the figures in a choices-less last chunk", async () => {
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(replyWith(sse([completion], { done: true })));
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
    const server = await startWire(replyWith(stream, { contentType: "application/json" }));
    expect((await run(chat(server))).message.content).toEqual([{ type: "text", text: "mislabelled" }]);
    await server.close();
    const completion = { choices: [{ message: { content: "bom" }, finish_reason: "stop" }] };
    const bom = await startWire(
      replyWith(`\uFEFF${JSON.stringify(completion)}`, { contentType: "application/json" }),
    );
    expect((await run(chat(bom))).message.content).toEqual([{ type: "text", text: "bom" }]);
  });

  it("skips chunks with `choices: []` before the first delta (Azure's prompt filter results)", async () => {
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(replyWith(sse([chatChunk({ content: "half an ans" })])));
    const error = await rejection(chat(server).stream(hello));
    expect(error.code).toBe("network");
    expect(error.retryable).toBe(true);
  });

  it("treats [DONE] after nothing at all as a cut-off answer, not an empty success", async () => {
    const server = await startWire(replyWith(sse([chatChunk({ role: "assistant" })], { done: true })));
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
    const server = await startWire(replyWith(`: hello${"\r\n\r\n"}${body}`));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "crlf ok" }]);
  });

  it("reassembles events split at arbitrary bytes, multi-byte characters included", async () => {
    const body = sse(
      [chatChunk({ content: "héllo wörld, 日本語 ✓" }), chatChunk({ content: " 🎉" }), chatChunk({}, "stop")],
      { eol: "\r\n", done: true },
    );
    const server = await startWire(replyWith(body, { pieces: 37 }));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "héllo wörld, 日本語 ✓ 🎉" }]);
  });

  it("resolves at [DONE] even when the server keeps the connection open afterwards", async () => {
    const server = await startWire(
      replyWith(sse([chatChunk({ content: "kept open" }), chatChunk({}, "stop")], { done: true }), {
        keepOpen: true,
      }),
    );
    const { message } = await run(chat(server, HOLD_OPEN));
    expect(message.content).toEqual([{ type: "text", text: "kept open" }]);
  });

  it("keeps a finished answer when the server then holds the connection open without [DONE]", async () => {
    const server = await startWire(
      replyWith(sse([chatChunk({ content: "finished" }), chatChunk({}, "stop")]), { keepOpen: true }),
    );
    const { message } = await run(chat(server, { idleTimeoutMs: 300 }));
    expect(message.content).toEqual([{ type: "text", text: "finished" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("accepts a last event that lacks its closing blank line", async () => {
    const body = `${sse([chatChunk({ content: "tail" }), chatChunk({}, "stop")])}data: [DONE]`;
    const server = await startWire(replyWith(body));
    const { message } = await run(chat(server));
    expect(message.content).toEqual([{ type: "text", text: "tail" }]);
  });

  it("ignores an `event:` line a proxy adds to each chunk", async () => {
    const body = sse([chatChunk({ content: "named" }), chatChunk({}, "stop")], { done: true }).replaceAll(
      "data: {",
      "event: message\ndata: {",
    );
    const server = await startWire(replyWith(body));
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
    const server = await startWire(replyWith(body));
    const error = await rejection(chat(server).stream(hello));
    expect(error.code).toBe("context_overflow");
  });
});
