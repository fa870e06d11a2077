import { describe, expect, it } from "vitest";
import type { StreamEvent } from "../../src/core/index.js";
import type { FakeReply } from "../../src/simulator/fake-provider-types.js";
import { ADAPTER_FAMILIES, type AdapterFamily } from "../support/adapter-families.js";
import {
  type AdapterRequest,
  adapterHarness,
  hello,
  parallelReadTurn,
  rejection,
  user,
} from "../support/adapter-harness.js";

/*
 * What every adapter promises whatever its wire: transient faults are retried (honouring
 * retry-after) and then succeed, drops and cut-off streams are retryable network errors, a stalled
 * stream gives up on the idle timeout, and the caller's abort stops at once without a retry; text
 * streams as deltas into the whole message; usage
 * it was not given stays undefined; a key comes from the options alone; the same context is sent
 * as the same bytes. Each wire's own error bodies are below; everything else is the same test for
 * all four.
 */

/** Each wire's real answers to the faults: a 429 body, and 5xx or in-stream errors worth a retry. */
const WIRE_FAULTS: Record<
  AdapterFamily["name"],
  { rateLimit: string; transient: Array<[string, FakeReply]> }
> = {
  anthropic: {
    rateLimit: JSON.stringify({
      type: "error",
      error: {
        type: "rate_limit_error",
        message: "Number of request tokens has exceeded your per-minute rate limit",
      },
    }),
    transient: [
      [
        "500",
        {
          type: "error",
          status: 500,
          body: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
        },
      ],
      [
        "529 overloaded",
        {
          type: "error",
          status: 529,
          body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        },
      ],
      [
        "an overloaded error inside the stream",
        {
          type: "stream-error",
          body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
        },
      ],
    ],
  },
  "openai-chat": {
    rateLimit:
      '{"error":{"message":"Rate limit reached for gpt-4o on requests per min (RPM): Limit 3","type":"requests","code":"rate_limit_exceeded"}}',
    transient: [
      [
        "500",
        {
          type: "error",
          status: 500,
          body: '{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}',
        },
      ],
      [
        "503 while a local server loads the model",
        {
          type: "error",
          status: 503,
          body: '{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}',
        },
      ],
      [
        "an upstream error chunk inside the stream",
        { type: "stream-error", body: '{"error":{"code":502,"message":"Provider disconnected"}}' },
      ],
    ],
  },
  "openai-responses": {
    rateLimit: JSON.stringify({
      error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
    }),
    transient: [
      [
        "500",
        {
          type: "error",
          status: 500,
          body: JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }),
        },
      ],
      [
        "529",
        {
          type: "error",
          status: 529,
          body: JSON.stringify({ error: { message: "Overloaded", type: "overloaded_error" } }),
        },
      ],
    ],
  },
  "google-gemini": {
    rateLimit: JSON.stringify({
      error: {
        code: 429,
        message: "Resource has been exhausted (e.g. check quota).",
        status: "RESOURCE_EXHAUSTED",
      },
    }),
    transient: [
      [
        "500",
        {
          type: "error",
          status: 500,
          body: JSON.stringify({
            error: { code: 500, message: "An internal error has occurred.", status: "INTERNAL" },
          }),
        },
      ],
      [
        "503",
        {
          type: "error",
          status: 503,
          body: JSON.stringify({
            error: {
              code: 503,
              message: "The model is overloaded. Please try again later.",
              status: "UNAVAILABLE",
            },
          }),
        },
      ],
      [
        "529",
        {
          type: "error",
          status: 529,
          body: JSON.stringify({ error: { code: 529, message: "Overloaded", status: "UNAVAILABLE" } }),
        },
      ],
    ],
  },
};

describe.each(ADAPTER_FAMILIES)("adapter contract: $name", (family) => {
  const faults = WIRE_FAULTS[family.name];
  const { server, start, client, run } = adapterHarness({ ...family, maxRetries: 2, startBeforeEach: true });
  const retryWaits = (events: StreamEvent[]) => events.filter((event) => event.type === "retry-wait");

  it("streams text as deltas and resolves with the whole message, its usage and stop reason", async () => {
    const text = "Hello there, this is a longer answer.";
    server.enqueue({ type: "text", text, usage: { input: 40, output: 9 } });
    const { message, events } = await run();
    const deltas = events.flatMap((event) => (event.type === "text-delta" ? [event.text] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join("")).toBe(text);
    expect(message).toMatchObject({
      role: "assistant",
      content: [{ type: "text", text }],
      provider: family.provider,
      api: family.api,
      model: family.model,
      stopReason: "stop",
      usage: { promptTokens: 40, outputTokens: 9, resentOutputTokens: 9, ...family.zeroUsage },
    });
    expect(server.requests[0]?.path).toBe(family.streamPath);
    expect(server.requests[0]?.headers).toMatchObject(family.keyHeaders("test-key"));
  });

  it("waits as long as retry-after says on 429, then succeeds", async () => {
    server.enqueue(
      { type: "error", status: 429, body: faults.rateLimit, headers: { "retry-after": "0.05" } },
      { type: "text", text: "after the wait" },
    );
    const { message, events } = await run();
    expect(message.content).toEqual([{ type: "text", text: "after the wait" }]);
    expect(retryWaits(events)).toEqual([
      { type: "retry-wait", attempt: 1, delayMs: 50, reason: expect.stringContaining("429") },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it.each([
    ...faults.transient,
    ["a connection dropped mid-stream", { type: "drop", afterText: "partial" }],
  ] as Array<[string, FakeReply]>)("retries after %s, then succeeds", async (_name, fault) => {
    server.enqueue(fault, { type: "text", text: "recovered" });
    const { message, events } = await run();
    expect(message.content).toEqual([{ type: "text", text: "recovered" }]);
    expect(retryWaits(events)).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it("fails with a network error once drops outlast the retries", async () => {
    server.enqueue({ type: "drop" }, { type: "drop" });
    const error = await rejection(client({ retry: { maxRetries: 1, baseDelayMs: 1 } }).stream(hello));
    expect(error.code).toBe("network");
    expect(server.requests).toHaveLength(2);
  });

  it("treats a stream that ends without its terminal event as a retryable network error", async () => {
    server.enqueue({ type: "truncate", afterText: "half an ans" });
    const error = await rejection(client({ retry: { maxRetries: 0 } }).stream(hello));
    expect(error.code).toBe("network");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("truncated");
  });

  it("gives up on a stream that sends nothing for the idle timeout", async () => {
    server.enqueue({ type: "hang" });
    const error = await rejection(client({ idleTimeoutMs: 200, retry: { maxRetries: 0 } }).stream(hello));
    expect(error.code).toBe("network");
    expect(error.message).toContain("idle timeout");
  });

  it("reports a caller abort as aborted and does not retry it", async () => {
    const controller = new AbortController();
    await start({
      responder: () => {
        controller.abort();
        return { type: "hang" };
      },
    });
    const error = await rejection(
      client({ retry: { maxRetries: 3, baseDelayMs: 1 } }).stream(hello, { signal: controller.signal }),
    );
    expect(error.code).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });

  it("sends nothing when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client().stream(hello, { signal: controller.signal }));
    expect(error.code).toBe("aborted");
    expect(server.requests).toHaveLength(0);
  });

  it("reports a refused connection as a network error", async () => {
    const closed = await family.startServer();
    await closed.close();
    const error = await rejection(client({ baseURL: closed.url, retry: { maxRetries: 0 } }).stream(hello));
    expect(error.code).toBe("network");
  });

  it("leaves usage undefined, never zeros, when the response reports none", async () => {
    server.enqueue({ type: "text", text: "ok", usage: null });
    const { message } = await run();
    expect(message.usage).toBeUndefined();
    expect(message.content).toEqual([{ type: "text", text: "ok" }]);
  });

  it("never sends a key from the environment: a keyless endpoint gets a placeholder, and extra headers", async () => {
    const saved = process.env[family.keyVariable];
    process.env[family.keyVariable] = "sk-from-the-environment";
    try {
      await family
        .createClient({
          provider: "proxy",
          model: family.model,
          baseURL: server.url,
          headers: { "x-panto-test": "1" },
        })
        .stream(hello);
    } finally {
      if (saved === undefined) delete process.env[family.keyVariable];
      else process.env[family.keyVariable] = saved;
    }
    expect(server.requests[0]?.headers).toMatchObject({
      ...family.keyHeaders("no-key"),
      "x-panto-test": "1",
    });
  });

  it("sends the configured key and extra headers", async () => {
    await run({ apiKey: "sk-test", headers: { "x-team": "panto" } });
    expect(server.requests[0]?.headers).toMatchObject({ ...family.keyHeaders("sk-test"), "x-team": "panto" });
  });

  it("sends the request's output limit over the configured one, and the configured one when the request sets none", async () => {
    await run({ maxOutputTokens: 1000 });
    await run({ maxOutputTokens: 1000 }, { ...hello, maxOutputTokens: 200 });
    expect(server.requests.map((recorded) => family.outputLimit(recorded.body))).toEqual([1000, 200]);
  });

  it("sends the same bytes for the same context twice, so the provider's prompt cache can hit", async () => {
    const request = cacheableRequest(family);
    await run({ model: family.reasoningModel }, request);
    await run({ model: family.reasoningModel }, request);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[0]?.body)).toBe(JSON.stringify(server.requests[1]?.body));
  });
});

/** A compacted context with this adapter's own signed thinking, text, parallel calls and their results. */
function cacheableRequest(family: AdapterFamily): AdapterRequest {
  const identity = { provider: family.provider, api: family.api, model: family.reasoningModel };
  const messages = [...parallelReadTurn(identity), user("again")];
  return { ...hello, context: { compaction: { type: "compaction", summary: "S" }, messages } };
}
