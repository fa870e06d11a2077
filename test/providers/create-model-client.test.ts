import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  type AssistantMessage,
  isPantoError,
  type ModelClient,
  type ModelRequest,
  PantoError,
} from "../../src/core/index.js";
import { createModelClient } from "../../src/providers/create-model-client.js";
import { isMissingRoute, withChatFallback } from "../../src/providers/with-chat-fallback.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";

const request: Omit<ModelRequest, "model"> = {
  systemPrompt: "You are terse.",
  context: { messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }] },
  tools: [],
};

const textOf = (message: AssistantMessage): string =>
  message.content.map((block) => (block.type === "text" ? block.text : "")).join("");

async function rejection(promise: Promise<unknown>): Promise<PantoError> {
  try {
    await promise;
  } catch (error) {
    if (isPantoError(error)) return error;
    throw error;
  }
  throw new Error("expected a rejection");
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length > 0) await closers.pop()?.();
});

describe("createModelClient checks before sending anything", () => {
  it("throws an auth error naming the variable when the key is missing", () => {
    let caught: unknown;
    try {
      createModelClient("openai/gpt-5", { env: {} });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PantoError);
    expect(caught).toMatchObject({ code: "auth", message: "no API key for openai: set OPENAI_API_KEY" });
  });

  it("throws invalid_request for a model id without a provider", () => {
    expect(() => createModelClient("gpt-5", { env: {} })).toThrowError(/must be written provider\/model/);
  });

  it("reports the model id and provider as written", () => {
    const client = createModelClient("openrouter/anthropic/claude-sonnet-4.5", {
      env: { OPENROUTER_API_KEY: "k" },
    });
    expect([client.id, client.provider, client.model]).toEqual([
      "openrouter/anthropic/claude-sonnet-4.5",
      "openrouter",
      "anthropic/claude-sonnet-4.5",
    ]);
  });
});

describe("createModelClient routes to the right adapter", () => {
  const track = (server: FakeServer): FakeServer => {
    closers.push(() => server.close());
    return server;
  };

  it("sends anthropic models to the Messages API at ANTHROPIC_BASE_URL", async () => {
    const server = track(await startFakeAnthropicServer());
    server.enqueue({ type: "text", text: "from anthropic" });
    const client = createModelClient("anthropic/claude-sonnet-4-5", {
      env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
    });
    const message = await client.stream(request);
    expect(textOf(message)).toBe("from anthropic");
    expect(message.api).toBe("anthropic-messages");
    expect(server.requests.map((recorded) => recorded.path)).toEqual(["/v1/messages"]);
  });

  it("sends openai models to the Responses API at OPENAI_BASE_URL", async () => {
    const server = track(await startFakeOpenAIResponsesServer());
    server.enqueue({ type: "text", text: "from responses" });
    const client = createModelClient("openai/gpt-5", {
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url },
    });
    const message = await client.stream(request);
    expect(textOf(message)).toBe("from responses");
    expect(message.api).toBe("openai-responses");
    expect(server.requests.map((recorded) => recorded.path)).toEqual(["/v1/responses"]);
  });

  it("sends google models to the Gemini API at GEMINI_BASE_URL", async () => {
    const server = track(await startFakeGeminiServer());
    server.enqueue({ type: "text", text: "from gemini" });
    const client = createModelClient("google/gemini-2.5-flash", {
      env: { GEMINI_API_KEY: "k", GEMINI_BASE_URL: server.url },
    });
    const message = await client.stream(request);
    expect(textOf(message)).toBe("from gemini");
    expect(message.api).toBe("google-gemini");
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toContain("gemini-2.5-flash:streamGenerateContent");
  });

  it("sends a keyless local preset to the chat adapter at its base-URL override", async () => {
    const server = track(await startFakeOpenAIChatServer());
    server.enqueue({ type: "text", text: "from ollama" });
    const client = createModelClient("ollama/qwen3:8b", { env: { OLLAMA_BASE_URL: server.url } });
    const message = await client.stream(request);
    expect(textOf(message)).toBe("from ollama");
    expect(message.api).toBe("openai-chat");
    expect(message.provider).toBe("ollama");
    expect(server.requests.map((recorded) => recorded.path)).toEqual(["/v1/chat/completions"]);
  });

  it("sends a config provider through its api with its headers and key", async () => {
    const server = track(await startFakeOpenAIChatServer());
    server.enqueue({ type: "text", text: "from corp" });
    const client = createModelClient("corp/big-model", {
      config: { corp: { base_url: server.url, api_key_env: "CORP_KEY", headers: { "X-Team": "infra" } } },
      env: { CORP_KEY: "corp-secret" },
    });
    expect(textOf(await client.stream(request))).toBe("from corp");
    const headers = server.requests[0]?.headers ?? {};
    expect(headers["x-team"]).toBe("infra");
    expect(headers.authorization).toBe("Bearer corp-secret");
  });
});

/** An OpenAI-compatible server without /responses: 404 there, a streamed chat completion on /chat/completions. */
async function startChatOnlyServer(responses404Body: string): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    paths.push(req.url ?? "");
    req.resume();
    req.on("end", () => {
      if (req.url === "/v1/chat/completions") return writeChatCompletion(res);
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(responses404Body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, paths };
}

function writeChatCompletion(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
    const data = {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices,
      ...extra,
    };
    res.write(`data: ${JSON.stringify(data)}\n\n`);
  };
  chunk([{ index: 0, delta: { role: "assistant", content: "from chat" }, finish_reason: null }]);
  chunk([{ index: 0, delta: {}, finish_reason: "stop" }]);
  chunk([], { usage: { prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } });
  res.end("data: [DONE]\n\n");
}

describe("openai falls back to Chat Completions when the endpoint has no /responses", () => {
  it("switches on a route 404, warns once, and stays on chat for later calls", async () => {
    const server = await startChatOnlyServer("404 page not found");
    const warnings: string[] = [];
    const client = createModelClient("openai/qwen3", {
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url },
      onWarning: (message) => warnings.push(message),
    });
    expect(textOf(await client.stream(request))).toBe("from chat");
    expect(textOf(await client.stream(request))).toBe("from chat");
    expect(server.paths).toEqual(["/v1/responses", "/v1/chat/completions", "/v1/chat/completions"]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("Chat Completions");
  });

  it("does not fall back when the 404 is about the model", async () => {
    const body =
      '{"error":{"message":"The model `nope` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}';
    const server = await startChatOnlyServer(body);
    const client = createModelClient("openai/nope", {
      env: { OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url },
    });
    const error = await rejection(client.stream(request));
    expect(error.code).toBe("invalid_request");
    expect(error.unknownModel).toBe(true);
    expect(error.status).toBe(404);
    expect(server.paths).toEqual(["/v1/responses"]);
  });
});

describe("withChatFallback", () => {
  const answering = (text: string, calls: string[]): ModelClient => ({
    id: "openai/m",
    provider: "openai",
    model: "m",
    stream: async () => {
      calls.push(text);
      return {
        role: "assistant",
        content: [{ type: "text", text }],
        provider: "openai",
        api: "openai-chat",
        model: "m",
        stopReason: "stop",
      };
    },
  });
  const failing = (error: unknown, calls: string[]): ModelClient => ({
    ...answering("never", calls),
    stream: async () => {
      calls.push("primary");
      throw error;
    },
  });

  it("passes other errors through untouched and never builds the fallback", async () => {
    const calls: string[] = [];
    let built = 0;
    const overflow = new PantoError("context_overflow", "openai: 400 prompt too long", {
      status: 400,
      provider: "openai",
    });
    const client = withChatFallback(failing(overflow, calls), () => {
      built++;
      return answering("chat", calls);
    });
    await expect(client.stream(request)).rejects.toBe(overflow);
    expect(built).toBe(0);
  });

  it("recognises route 404s but not model 404s", () => {
    const notFound = (body: string): PantoError =>
      new PantoError("invalid_request", `openai: 404 ${body}`, { status: 404, provider: "openai" });
    expect(isMissingRoute(notFound('{"detail":"Not Found"}'))).toBe(true);
    expect(
      isMissingRoute(notFound("Unknown request URL: POST /v1/responses. Please check the URL for typos.")),
    ).toBe(true);
    expect(
      isMissingRoute(notFound('{"error":{"message":"model \\"llama9\\" not found, try pulling it first"}}')),
    ).toBe(false);
    expect(isMissingRoute(new PantoError("invalid_request", "openai: 400 bad", { status: 400 }))).toBe(false);
    expect(isMissingRoute(new Error("404"))).toBe(false);
  });
});
