import { describe, expect, it } from "vitest";
import { createOpenAIResponsesClient } from "../../../src/providers/openai-responses/index.js";
import { rejection } from "../../support/adapter-harness.js";
import { HOLD_OPEN, hello, replyWith, run, sse, startWire, textsOf, wireClient } from "./wire-server.js";

// ---------------------------------------------------------------------------------------------
// OpenAI Responses
// ---------------------------------------------------------------------------------------------

const responses = wireClient(createOpenAIResponsesClient, "/v1");

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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
      replyWith(sse([{ type: "response.completed", response: responseObject([item]) }])),
    );
    const { message } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "loosely typed" }]);
  });

  it("ignores event types it does not know", async () => {
    const server = await startWire(
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
    const server = await startWire(replyWith(JSON.stringify(body), { contentType: "application/json" }));
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
    const server = await startWire(replyWith(JSON.stringify(body), { contentType: "application/json" }));
    const { message } = await run(responses(server));
    expect(message.content).toEqual([{ type: "text", text: "Trunc" }]);
    expect(message.stopReason).toBe("length");
  });

  it("still classifies an error object sent as a 200 JSON body", async () => {
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
