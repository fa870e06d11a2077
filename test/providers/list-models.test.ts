import { afterEach, describe, expect, it } from "vitest";
import { classifyProviderError } from "../../src/providers/classify-provider-error.js";
import { createModelClient } from "../../src/providers/create-model-client.js";
import { providerErrorFromResponse } from "../../src/providers/provider-error.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

const MODELS = ["model-b", "model-a", "model-c"];

interface Wire {
  name: string;
  start: (options: FakeServerOptions) => Promise<FakeServer>;
  model: string;
  env: (server: FakeServer) => NodeJS.ProcessEnv;
  config?: (server: FakeServer) => Record<string, { api: "openai-chat"; base_url: string }>;
  listPath: string;
}

const WIRES: Wire[] = [
  {
    name: "Anthropic Messages",
    start: startFakeAnthropicServer,
    model: "anthropic/model-a",
    env: (server) => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url }),
    listPath: "/v1/models",
  },
  {
    name: "OpenAI Responses",
    start: startFakeOpenAIResponsesServer,
    model: "openai/model-a",
    env: (server) => ({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: server.url }),
    listPath: "/v1/models",
  },
  {
    name: "OpenAI-compatible Chat Completions",
    start: startFakeOpenAIChatServer,
    model: "local/model-a",
    env: () => ({}),
    config: (server) => ({ local: { api: "openai-chat", base_url: server.url } }),
    listPath: "/v1/models",
  },
  {
    name: "Gemini",
    start: startFakeGeminiServer,
    model: "google/model-a",
    env: (server) => ({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: server.url }),
    listPath: "/v1beta/models",
  },
];

describe("listModels through each adapter's SDK against the fake servers", () => {
  for (const wire of WIRES) {
    it(`${wire.name}: returns the names the list endpoint reports, without a prefix`, async () => {
      const server = await wire.start({ models: MODELS });
      servers.push(server);
      const client = createModelClient(wire.model, {
        env: wire.env(server),
        ...(wire.config === undefined ? {} : { config: wire.config(server) }),
      });
      expect((await client.listModels?.())?.sort()).toEqual(["model-a", "model-b", "model-c"]);
      expect(server.requests.map((request) => `${request.method} ${request.path.split("?")[0]}`)).toEqual([
        `GET ${wire.listPath}`,
      ]);
    });

    it(`${wire.name}: a server without a list endpoint rejects with a classified PantoError`, async () => {
      const server = await wire.start({});
      servers.push(server);
      const client = createModelClient(wire.model, {
        env: wire.env(server),
        retry: { maxRetries: 0 },
        ...(wire.config === undefined ? {} : { config: wire.config(server) }),
      });
      await expect(client.listModels?.()).rejects.toMatchObject({ name: "PantoError", status: 404 });
    });
  }
});

describe("an unknown model is an invalid_request that says so", () => {
  it("tells 404s about the model (unknownModel) from a bare 404, both invalid_request", () => {
    const anthropic =
      '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent-9"}}';
    const openai =
      '{"error":{"message":"The model `gpt-9` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}';
    const gemini =
      '{"error":{"code":404,"message":"models/gemini-9 is not found for API version v1beta","status":"NOT_FOUND"}}';
    for (const body of [anthropic, openai, gemini]) {
      expect(classifyProviderError({ status: 404, body })).toEqual({
        code: "invalid_request",
        retryable: false,
      });
      expect(providerErrorFromResponse({ status: 404, body, provider: "p" }).unknownModel).toBe(true);
    }
    expect(classifyProviderError({ status: 404, body: "404 page not found" }).code).toBe("invalid_request");
    expect(
      providerErrorFromResponse({ status: 404, body: "404 page not found", provider: "p" }).unknownModel,
    ).toBe(false);
  });

  it("reaches the caller of stream() as an invalid_request marked unknownModel through the real adapter", async () => {
    const server = await startFakeAnthropicServer();
    servers.push(server);
    server.enqueue({
      type: "error",
      status: 404,
      body: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent-9"}}',
    });
    const client = createModelClient("anthropic/claude-nonexistent-9", {
      env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
    });
    await expect(
      client.stream({ systemPrompt: "s", context: { messages: [] }, tools: [] }),
    ).rejects.toMatchObject({ code: "invalid_request", unknownModel: true });
  });
});
