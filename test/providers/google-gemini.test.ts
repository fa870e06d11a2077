import type { GenerateContentResponse } from "@google/genai";
import { describe, expect, it } from "vitest";
import type { EffectiveContext, Message } from "../../src/core/index.js";
import { GeminiStreamReader } from "../../src/providers/google-gemini/gemini-stream-reader.js";
import {
  createGeminiClient,
  FOREIGN_CALL_SIGNATURE,
  isSyntheticCallId,
  isThinkingModel,
  syntheticCallId,
} from "../../src/providers/google-gemini/index.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import {
  type AdapterRequest,
  adapterHarness,
  failure,
  foreignToolCalls,
  hello,
  screenshotTurn,
  toolResult,
  user,
} from "../support/adapter-harness.js";
import { adapterFixtures, fixtureReply, servedAs } from "../support/provider-error-fixtures.js";

const FIXTURES = adapterFixtures((entry) => entry.api === "gemini" || entry.api === "vertex-gemini");

const { server, start, run } = adapterHarness({
  startServer: startFakeGeminiServer,
  createClient: createGeminiClient,
  provider: "google",
  model: "gemini-2.5-flash",
  maxRetries: 3,
  startBeforeEach: false,
});

/** A synthetic id for the `read` call at index 0 or 1 of its answer. */
const SYNTHETIC_READ = /^gemini_call_[0-9a-f]{12}_[01]_read$/;

type WireContent = { role: string; parts: Array<Record<string, unknown>> };

function contentsOf(index: number): WireContent[] {
  const body = server.requests[index]?.body as { contents?: WireContent[] } | undefined;
  return body?.contents ?? [];
}

describe("Gemini adapter: streaming", () => {
  it("streams thoughts and parallel function calls, synthesising ids when Gemini sends none", async () => {
    await start();
    server.enqueue({
      type: "tool-calls",
      thinking: "Both files are needed.",
      calls: [
        { name: "read", arguments: { path: "a.txt" } },
        { name: "read", arguments: { path: "b.txt" } },
      ],
    });
    const { message, events } = await run();
    const thinking = events.filter((event) => event.type === "thinking-delta").map((event) => event.text);
    expect(thinking.join("")).toBe("Both files are needed.");
    const starts = events.filter((event) => event.type === "tool-call-start");
    expect(starts).toEqual([
      { type: "tool-call-start", id: expect.stringMatching(SYNTHETIC_READ), name: "read" },
      { type: "tool-call-start", id: expect.stringMatching(SYNTHETIC_READ), name: "read" },
    ]);
    const [first, second] = starts.map((event) => (event as { id: string }).id);
    // One tag for the answer, told apart by the call's index in it.
    expect(first?.replace(/_0_read$/, "")).toBe(second?.replace(/_1_read$/, ""));
    expect(message.stopReason).toBe("tool-use");
    expect(message.content).toEqual([
      { type: "thinking", text: "Both files are needed." },
      { type: "thinking", text: "", signature: expect.stringMatching(/^sig_/) },
      { type: "tool-call", id: first, name: "read", arguments: { path: "a.txt" } },
      { type: "tool-call", id: second, name: "read", arguments: { path: "b.txt" } },
    ]);
  });

  it("never gives two answers' id-less calls the same id (clearing and recall name results by it)", async () => {
    await start();
    const ids: string[] = [];
    for (const path of ["a.txt", "b.txt", "c.txt"]) {
      server.enqueue({ type: "tool-calls", calls: [{ name: "read", arguments: { path } }] });
      const { message } = await run();
      for (const block of message.content) if (block.type === "tool-call") ids.push(block.id);
    }
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      expect(id).toMatch(/^gemini_call_[0-9a-f]{12}_0_read$/);
      expect(isSyntheticCallId(id)).toBe(true);
    }
  });

  it("keeps the ids Gemini issues for its function calls", async () => {
    await start();
    server.enqueue({ type: "tool-calls", calls: [{ id: "fc-123", name: "ls", arguments: {} }] });
    const { message } = await run();
    expect(message.content).toEqual([{ type: "tool-call", id: "fc-123", name: "ls", arguments: {} }]);
  });
});

describe("Gemini adapter: usage", () => {
  it("counts cached tokens in the prompt and thoughts in the output, re-sending only the candidates", async () => {
    await start();
    server.enqueue({
      type: "text",
      text: "ok",
      thinking: "t",
      usage: { input: 100, output: 20, cacheRead: 50, reasoning: 30 },
    });
    const { message } = await run();
    expect(message.usage).toEqual({
      promptTokens: 150,
      outputTokens: 50,
      resentOutputTokens: 20,
      cacheReadTokens: 50,
      reasoningTokens: 30,
    });
  });
});

describe("Gemini adapter: fixture errors served for real", () => {
  for (const entry of FIXTURES) {
    it(`classifies ${entry.provider} ${servedAs(entry)}: ${entry.note.slice(0, 60)}`, async () => {
      await start();
      server.enqueue(fixtureReply(entry));
      const error = await failure(run({ retry: { maxRetries: 0 } }));
      expect(error.name).toBe("PantoError");
      if (entry.scored !== false) expect(error.code === "context_overflow").toBe(entry.is_overflow);
      if (entry.expected_code !== undefined) expect(error.code).toBe(entry.expected_code);
      expect(error.code).not.toBe("other");
    });
  }

  it("answers the fake context window with Gemini's real overflow body and does not retry it", async () => {
    await start({ contextWindow: 10 });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
    expect(error.status).toBe(400);
    expect(error.message).toMatch(
      /The input token count \(\d+\) exceeds the maximum number of tokens allowed \(10\)/,
    );
    expect(error.contextWindow).toBe(10);
    expect(error.message).toContain(`token count (${error.requestTokens})`);
    expect(server.requests).toHaveLength(1);
  });

  it("recognises an overflow payload that arrives inside the stream, without a status", async () => {
    await start();
    server.enqueue({
      type: "stream-error",
      body: JSON.stringify({
        error: {
          code: 400,
          message: "The input token count (9) exceeds the maximum number of tokens allowed (8).",
          status: "INVALID_ARGUMENT",
        },
      }),
    });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
    expect(error.status).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("recognises an in-stream error the SDK lets through (array-wrapped, no numeric code)", async () => {
    await start();
    server.enqueue({
      type: "stream-error",
      body: JSON.stringify([
        {
          error: {
            message: "The input token count (9) exceeds the maximum number of tokens allowed (8).",
            status: "INVALID_ARGUMENT",
          },
        },
      ]),
    });
    const error = await failure(run());
    expect(error.code).toBe("context_overflow");
  });
});

// Plain text streaming, retries, drops, timeouts, aborts, missing usage, credentials and
// cache-stable bodies are the same for every adapter: adapter-contract.test.ts runs them for all four.
describe("Gemini adapter: the SDK's own retries", () => {
  it("does not let the SDK retry by itself: a 503 with retries off is one request", async () => {
    await start();
    server.enqueue({
      type: "error",
      status: 503,
      body: '{"error":{"code":503,"message":"busy","status":"UNAVAILABLE"}}',
    });
    const error = await failure(run({ retry: { maxRetries: 0 } }));
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});

describe("Gemini adapter: request bodies", () => {
  const signature = "c2lnLW9uLWNhbGw=";
  const toolCallTurn: Message[] = [
    user("read a and b"),
    {
      role: "assistant",
      provider: "google",
      api: "google-gemini",
      model: "gemini-2.5-flash",
      stopReason: "tool-use",
      content: [
        { type: "thinking", text: "unsigned summary" },
        { type: "text", text: "Reading." },
        { type: "thinking", text: "", signature },
        { type: "tool-call", id: "gemini_call_0_read", name: "read", arguments: { path: "a" } },
        { type: "tool-call", id: "fc-b", name: "read", arguments: { path: "b" } },
      ],
    },
    {
      role: "tool",
      content: [
        toolResult("fc-b", "read", "B"),
        toolResult("gemini_call_0_read", "read", "no such file", true),
      ],
    },
  ];

  it("sends the system instruction, tools as JSON Schema, output cap and thought summaries", async () => {
    await start();
    await run(
      {},
      {
        ...hello,
        tools: [
          {
            name: "read",
            description: "Read a file",
            parameters: { type: "object", additionalProperties: false },
          },
        ],
        maxOutputTokens: 300,
      },
    );
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      systemInstruction: { parts: [{ text: "You are terse." }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: "read",
              description: "Read a file",
              parametersJsonSchema: { type: "object", additionalProperties: false },
            },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 300, thinkingConfig: { includeThoughts: true } },
    });
    expect(JSON.stringify(body)).not.toMatch(/automaticContinuation|automaticFunctionCalling|abortSignal/);
  });

  it.each([
    ["gemini-2.5-pro", true],
    ["gemini-3-pro-preview", true],
    ["gemini-flash-latest", true],
    ["models/gemini-2.5-flash-lite", true],
    ["gemini-2.0-flash", false],
    ["gemini-1.5-pro", false],
    ["gemma-3-27b-it", false],
  ])("knows whether %s thinks (%s)", (model, thinks) => {
    expect(isThinkingModel(model)).toBe(thinks);
  });

  it("asks no thoughts of models that do not think", async () => {
    await start();
    await run({ model: "gemini-2.0-flash" });
    expect(JSON.stringify(server.requests[0]?.body)).not.toContain("thinkingConfig");
  });

  it("puts the compaction summary first in the first user content", async () => {
    await start();
    const context: EffectiveContext = {
      compaction: { type: "compaction", summary: "We fixed bug #3." },
      messages: toolCallTurn,
    };
    await run({}, { ...hello, context });
    const first = contentsOf(0)[0];
    expect(first?.role).toBe("user");
    expect(String(first?.parts[0]?.text)).toMatch(
      /^<conversation-summary>\nWe fixed bug #3.\n<\/conversation-summary>/,
    );
    expect(first?.parts[1]).toEqual({ text: "read a and b" });
  });

  it("gives the compaction summary a user content of its own when the context starts with the model", async () => {
    await start();
    await run(
      {},
      {
        ...hello,
        context: { compaction: { type: "compaction", summary: "S" }, messages: toolCallTurn.slice(1) },
      },
    );
    const contents = contentsOf(0);
    expect(contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
    expect(contents[0]?.parts).toHaveLength(1);
  });

  it("replays signatures on their parts and answers all calls in one user content, in call order", async () => {
    await start();
    await run({}, { ...hello, context: { messages: toolCallTurn } });
    expect(contentsOf(0)).toEqual([
      { role: "user", parts: [{ text: "read a and b" }] },
      {
        role: "model",
        parts: [
          { text: "Reading." },
          { functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: signature },
          { functionCall: { name: "read", args: { path: "b" }, id: "fc-b" } },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "read", response: { error: "no such file" } } },
          { functionResponse: { name: "read", response: { output: "B" }, id: "fc-b" } },
        ],
      },
    ]);
  });

  it("merges consecutive user messages so roles alternate", async () => {
    await start();
    const messages: Message[] = [user("first, never answered"), user("second")];
    await run({}, { ...hello, context: { messages } });
    expect(contentsOf(0)).toEqual([
      { role: "user", parts: [{ text: "first, never answered" }, { text: "second" }] },
    ]);
  });

  it("drops another API's thinking and signs its first function call with the documented placeholder", async () => {
    await start();
    const messages: Message[] = [
      user("go"),
      foreignToolCalls({ id: "toolu_1" }, { id: "toolu_2", path: "src" }),
    ];
    await run({}, { ...hello, context: { messages } });
    const contents = contentsOf(0);
    expect(contents[1]?.parts).toEqual([
      { functionCall: { name: "ls", args: {}, id: "toolu_1" }, thoughtSignature: FOREIGN_CALL_SIGNATURE },
      { functionCall: { name: "ls", args: { path: "src" }, id: "toolu_2" } },
    ]);
    expect(contents[2]?.parts.map((part) => Object.keys(part))).toEqual([
      ["functionResponse"],
      ["functionResponse"],
    ]);
    expect(contents.map((content) => content.role)).toEqual(["user", "model", "user"]);
  });

  it("sends images inline, from the user and from tool results", async () => {
    await start();
    const messages = screenshotTurn(
      { provider: "google", api: "google-gemini", model: "gemini-2.5-flash" },
      { id: "gemini_call_0_shot", name: "shot", text: "taken" },
    );

    await run({}, { ...hello, context: { messages } });
    const contents = contentsOf(0);
    expect(contents[0]?.parts[1]).toEqual({ inlineData: { mimeType: "image/png", data: "iVBOR" } });
    expect(contents[2]?.parts).toEqual([
      { functionResponse: { name: "shot", response: { output: "taken" } } },
      { inlineData: { mimeType: "image/jpeg", data: "/9j/" } },
    ]);
  });

  it("round-trips its own answer: what it streamed is what it sends back", async () => {
    await start();
    server.enqueue({
      type: "tool-calls",
      thinking: "plan",
      text: "Calling.",
      calls: [{ name: "ls", arguments: {} }],
    });
    const { message } = await run();
    const messages: Message[] = [
      ...hello.context.messages,
      message,
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId:
              message.content.at(-1)?.type === "tool-call"
                ? (message.content.at(-1) as { id: string }).id
                : "",
            toolName: "ls",
            content: [{ type: "text", text: "a b" }],
            isError: false,
          },
        ],
      },
    ];
    await run({}, { ...hello, context: { messages } });
    const model = contentsOf(1)[1];
    expect(model?.parts).toEqual([
      { text: "Calling." },
      { functionCall: { name: "ls", args: {} }, thoughtSignature: expect.stringMatching(/^sig_/) },
    ]);
    expect(contentsOf(1)[2]?.parts).toEqual([
      { functionResponse: { name: "ls", response: { output: "a b" } } },
    ]);
  });
});

describe("Gemini adapter: the request on the wire", () => {
  const tools: AdapterRequest["tools"] = [
    { name: "read", description: "Read a file", parameters: { type: "object", required: ["path"] } },
  ];

  it("posts to {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the key in x-goog-api-key, and configured headers win whatever their case", async () => {
    await start();
    await run({ headers: { "X-Team": "core", "X-Goog-Api-Key": "from-config" } });
    const [sent] = server.requests;
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(sent?.headers["x-team"]).toBe("core");
    expect(sent?.headers["x-goog-api-key"]).toBe("from-config");
    // Never a bearer token (Google would read the key there as an OAuth token), and none of the
    // SDK's telemetry.
    expect(sent?.headers.authorization).toBeUndefined();
    expect(sent?.headers["x-goog-api-client"]).toBeUndefined();
    await run();
    expect(server.requests[1]?.headers["x-goog-api-key"]).toBe("test-key");
    expect(server.requests[1]?.headers["x-team"]).toBeUndefined();
  });

  it("keeps the API version a base URL names, adds none twice, and sends a keyless proxy the placeholder key", async () => {
    await start();
    await run({ baseURL: `${server.url}/` });
    await run({ baseURL: `${server.url}/v1beta/` });
    await run({ baseURL: `${server.url}/v1` });
    const keyless = createGeminiClient({
      provider: "google",
      model: "models/gemini-2.0-flash",
      baseURL: server.url,
    });
    await keyless.stream(hello);
    expect(server.requests.map((sent) => sent.path)).toEqual([
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      "/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
      "/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse",
    ]);
    expect(server.requests[3]?.headers["x-goog-api-key"]).toBe("no-key");
  });

  it("sends the system instruction and tools at the top level and the generation settings in generationConfig, in the SDK's order", async () => {
    await start();
    await run({}, { ...hello, tools, maxOutputTokens: 300 });
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body).toEqual({
      contents: [{ parts: [{ text: "hi" }], role: "user" }],
      systemInstruction: { parts: [{ text: "You are terse." }], role: "user" },
      tools: [
        {
          functionDeclarations: [
            {
              name: "read",
              description: "Read a file",
              parametersJsonSchema: { type: "object", required: ["path"] },
            },
          ],
        },
      ],
      generationConfig: { maxOutputTokens: 300, thinkingConfig: { includeThoughts: true } },
    });
    // The SDK wrote the fields in this order: the same bytes keep a prompt cache warm across the change.
    expect(Object.keys(body)).toEqual(["contents", "systemInstruction", "tools", "generationConfig"]);
  });

  it("sends an empty generationConfig, and no systemInstruction or tools, when nothing sets them", async () => {
    await start();
    await run({ model: "gemini-2.0-flash" }, { systemPrompt: "", context: hello.context, tools: [] });
    expect(server.requests[0]?.body).toEqual({
      contents: [{ parts: [{ text: "hi" }], role: "user" }],
      generationConfig: {},
    });
  });
});

describe("GeminiStreamReader", () => {
  const meta = { provider: "google", model: "gemini-2.5-pro" };
  const chunk = (value: Record<string, unknown>): GenerateContentResponse =>
    value as unknown as GenerateContentResponse;
  const ending = (finishReason: string) =>
    chunk({ candidates: [{ content: { role: "model", parts: [{ text: "x" }] }, finishReason }] });

  it.each([
    ["MAX_TOKENS", "length"],
    ["SAFETY", "content-filter"],
    ["RECITATION", "content-filter"],
    ["PROHIBITED_CONTENT", "content-filter"],
    ["STOP", "stop"],
  ])("maps finishReason %s to stop reason %s", (finishReason, stopReason) => {
    const reader = new GeminiStreamReader(meta, undefined);
    reader.handle(ending(finishReason));
    expect(reader.result()?.stopReason).toBe(stopReason);
  });

  it("ends a blocked prompt as content-filter with no content", () => {
    const reader = new GeminiStreamReader(meta, undefined);
    reader.handle(
      chunk({ promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 12 } }),
    );
    expect(reader.result()).toMatchObject({
      content: [],
      stopReason: "content-filter",
      usage: { promptTokens: 12, outputTokens: 0 },
    });
  });

  it("adds the tool-use prompt to the prompt size", () => {
    const reader = new GeminiStreamReader(meta, undefined);
    reader.handle(
      chunk({
        candidates: [{ content: { role: "model", parts: [{ text: "x" }] }, finishReason: "STOP" }],
        usageMetadata: {
          promptTokenCount: 100,
          toolUsePromptTokenCount: 7,
          candidatesTokenCount: 3,
          thoughtsTokenCount: 5,
        },
      }),
    );
    expect(reader.result()?.usage).toEqual({
      promptTokens: 107,
      outputTokens: 8,
      resentOutputTokens: 3,
      reasoningTokens: 5,
    });
  });

  it("has no result until a chunk with a finishReason arrives", () => {
    const reader = new GeminiStreamReader(meta, undefined);
    reader.handle(chunk({ candidates: [{ content: { role: "model", parts: [{ text: "x" }] } }] }));
    expect(reader.result()).toBeUndefined();
  });
});

describe("synthetic call ids", () => {
  it("keep to [a-zA-Z0-9_-] and 40 characters whatever the name, so every other wire accepts them", () => {
    const long = syntheticCallId("0123456789ab", 12, "mcp__some.server:query_all_the_meetings");
    expect(long).toBe("gemini_call_0123456789ab_12_mcp__some_se");
    expect(long).toHaveLength(40);
    expect(syntheticCallId("0123456789ab", 0, "")).toBe("gemini_call_0123456789ab_0");
    expect(syntheticCallId("0123456789ab", 1, "read")).toBe("gemini_call_0123456789ab_1_read");
  });

  it("are told from ids the API issued, including those recorded before the answer tag", () => {
    expect(isSyntheticCallId(syntheticCallId("0123456789ab", 0, "read"))).toBe(true);
    expect(isSyntheticCallId("gemini_call_0_read")).toBe(true);
    expect(isSyntheticCallId("fc-123")).toBe(false);
    expect(isSyntheticCallId("toolu_01")).toBe(false);
  });

  it("differ between two readers (two answers) for the same id-less call", () => {
    const ids = [0, 1].map(() => {
      const reader = new GeminiStreamReader({ provider: "google", model: "gemini-2.5-pro" }, undefined);
      reader.handle({
        candidates: [
          {
            content: { role: "model", parts: [{ functionCall: { name: "read", args: { path: "a" } } }] },
            finishReason: "STOP",
          },
        ],
      } as unknown as GenerateContentResponse);
      const call = reader.result()?.content[0];
      return call?.type === "tool-call" ? call.id : undefined;
    });
    expect(ids[0]).toMatch(/^gemini_call_[0-9a-f]{12}_0_read$/);
    expect(ids[1]).toMatch(/^gemini_call_[0-9a-f]{12}_0_read$/);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe("fake Gemini server", () => {
  it("answers :generateContent with one JSON response", async () => {
    await start();
    server.enqueue({ type: "text", text: "whole", thinking: "why", usage: { input: 3, output: 1 } });
    const response = await fetch(`${server.url}/v1beta/models/gemini-2.5-pro:generateContent`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    });
    expect(await response.json()).toMatchObject({
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { text: "why", thought: true },
              { text: "whole", thoughtSignature: expect.any(String) },
            ],
          },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
    });
  });
});
