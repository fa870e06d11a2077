import { afterEach, describe, expect, it } from "vitest";
import { createModelClient } from "../../src/providers/create-model-client.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer, FakeServerInfo } from "../../src/simulator/index.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(serverInfo: FakeServerInfo | undefined, model = "fake-model") {
  server = await startFakeOpenAIChatServer(serverInfo === undefined ? {} : { serverInfo });
  const client = createModelClient(`local/${model}`, {
    env: {},
    config: { local: { base_url: server.url } },
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

  it("is undefined for a server that does not answer at all", async () => {
    const client = createModelClient("local/fake-model", {
      env: {},
      config: { local: { base_url: "http://127.0.0.1:9/v1" } },
    });
    expect(await client.contextWindow?.()).toBeUndefined();
  });
});
