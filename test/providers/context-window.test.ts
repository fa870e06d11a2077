import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/providers/create-model-client.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer, FakeServerInfo } from "../../src/simulator/index.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A provider named after the server's kind (as the built-in ones are), so panto knows where to ask. */
const PROVIDER: Record<FakeServerInfo["kind"], string> = {
  "llama.cpp": "llamacpp",
  ollama: "ollama",
  lmstudio: "lmstudio",
  openrouter: "openrouter",
};

async function clientFor(serverInfo: FakeServerInfo | undefined, model = "fake-model", provider?: string) {
  server = await startFakeOpenAIChatServer(serverInfo === undefined ? {} : { serverInfo });
  const name = provider ?? (serverInfo === undefined ? "local" : PROVIDER[serverInfo.kind]);
  const client = createModelClient(`${name}/${model}`, {
    env: {},
    config: { [name]: { base_url: server.url } },
  });
  return { client, fake: server };
}

describe("ModelClient.contextWindow (real HTTP against a fake OpenAI-compatible server)", () => {
  it.each([
    ["llama.cpp", { kind: "llama.cpp", contextWindow: 32768 }, 32768],
    ["Ollama's model_info context_length", { kind: "ollama", contextWindow: 131072 }, 131072],
    [
      "Ollama's num_ctx before the model's maximum",
      { kind: "ollama", contextWindow: 131072, numCtx: 8192 },
      8192,
    ],
    [
      "LM Studio's loaded context length",
      { kind: "lmstudio", contextWindow: 16384, model: "qwen2.5-7b" },
      16384,
    ],
    [
      "OpenRouter's listed context_length",
      { kind: "openrouter", contextWindow: 200000, model: "qwen2.5-7b" },
      200000,
    ],
  ] as Array<[string, FakeServerInfo, number]>)("reads %s", async (_name, info, expected) => {
    const { client } = await clientFor(info, info.model ?? "fake-model");
    expect(await client.contextWindow?.()).toBe(expected);
  });

  it("asks the server once, leaves the model requests and their queue alone, and is undefined when no endpoint says", async () => {
    const { client, fake } = await clientFor({ kind: "llama.cpp", contextWindow: 4096 });
    fake.enqueue({ type: "text", text: "queued answer" });
    expect(await client.contextWindow?.()).toBe(4096);
    const asked = fake.infoRequests.length;
    expect(await client.contextWindow?.()).toBe(4096);
    expect(fake.infoRequests).toHaveLength(asked);
    expect(fake.requests).toHaveLength(0);
    const answer = await client.stream({ systemPrompt: "", context: { messages: [] }, tools: [] });
    expect(answer.content).toEqual([{ type: "text", text: "queued answer" }]);
    await fake.close();

    const { client: silent } = await clientFor(undefined);
    expect(await silent.contextWindow?.()).toBeUndefined();
  });

  it("asks only the endpoint the server's kind has, and a server of unknown kind only its model listing (issue 42)", async () => {
    const { client, fake } = await clientFor({ kind: "ollama", contextWindow: 8192 });
    expect(await client.contextWindow?.()).toBe(8192);
    expect(fake.infoRequests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "POST /api/show",
    ]);
    await fake.close();
    // A custom provider on an unknown port: the llama.cpp server is not asked at /props.
    const { client: unknown, fake: other } = await clientFor(
      { kind: "llama.cpp", contextWindow: 4096 },
      "m",
      "mine",
    );
    expect(await unknown.contextWindow?.()).toBeUndefined();
    expect(other.infoRequests.map((request) => `${request.method} ${request.path}`)).toEqual([
      "GET /v1/models",
    ]);
  });

  it("is undefined for a server that does not answer at all", async () => {
    const client = createModelClient("local/fake-model", {
      env: {},
      config: { local: { base_url: "http://127.0.0.1:9/v1" } },
    });
    expect(await client.contextWindow?.()).toBeUndefined();
  });
});
