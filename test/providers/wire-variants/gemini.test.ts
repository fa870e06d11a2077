import { describe, expect, it } from "vitest";
import { createGeminiClient } from "../../../src/providers/google-gemini/index.js";
import { jsonArrayElements } from "../../../src/providers/google-gemini/json-array-elements.js";
import { readSseEvents, type SseEvent } from "../../../src/providers/shared/index.js";
import { rejection } from "../../support/adapter-harness.js";
import { hello, replyWith, run, sse, startWire, textsOf, wireClient } from "./wire-server.js";

// ---------------------------------------------------------------------------------------------
// Google Gemini
// ---------------------------------------------------------------------------------------------

const gemini = wireClient(createGeminiClient, "", { provider: "google", model: "gemini-2.5-flash" });

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
    const server = await startWire(
      replyWith(
        sse([geminiChunk([{ text: "no " }]), geminiChunk([{ text: "usage" }], { finishReason: "STOP" })]),
      ),
    );
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "no usage" }]);
    expect(message.usage).toBeUndefined();
  });

  it("ends on a final chunk that carries only the finishReason", async () => {
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(
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
    const server = await startWire(replyWith(JSON.stringify(body), { contentType: "application/json" }));
    const { message } = await run(gemini(server));
    expect(message.content).toEqual([{ type: "text", text: "one shot" }]);
  });

  it("parses CRLF line endings, `data:` without a space, comments and `event:` lines", async () => {
    const server = await startWire(
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
    const server = await startWire(
      replyWith(sse([geminiChunk([{ text: "held" }], { finishReason: "STOP" })]), { keepOpen: true }),
    );
    const { message } = await run(gemini(server, { idleTimeoutMs: 300 }));
    expect(message.content).toEqual([{ type: "text", text: "held" }]);
    expect(server.requests).toHaveLength(1);
  });

  it("still classifies an error payload inside the stream", async () => {
    const server = await startWire(
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
    const server = await startWire(replyWith(sse([geminiChunk([{ text: "cut" }])])));
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
