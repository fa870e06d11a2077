import { describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../../src/providers/anthropic/index.js";
import { rejection } from "../../support/adapter-harness.js";
import { HOLD_OPEN, hello, replyWith, run, sse, startWire, textsOf, wireClient } from "./wire-server.js";

// ---------------------------------------------------------------------------------------------
// Anthropic Messages
// ---------------------------------------------------------------------------------------------

const anthropic = wireClient(createAnthropicClient);

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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(replyWith(JSON.stringify(whole), { contentType: "application/json" }));
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
    const server = await startWire(
      replyWith('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', {
        contentType: "application/json",
      }),
    );
    const error = await rejection(anthropic(server).stream(hello));
    expect(error.code).toBe("overloaded");
  });

  it("reads an event stream mislabelled application/json as the stream it is", async () => {
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
      const server = await startWire(replyWith(sse([messageStart(), overflow], { eventLines })));
      const error = await rejection(anthropic(server).stream(hello));
      expect(error.code).toBe("context_overflow");
      await server.close();
    }
  });

  it("still fails as a network error when the stream ends before message_stop", async () => {
    const server = await startWire(
      replyWith(sse([messageStart(), ...textBlock(0, "cut")], { eventLines: true })),
    );
    const error = await rejection(anthropic(server).stream(hello));
    expect(error.code).toBe("network");
  });
});
