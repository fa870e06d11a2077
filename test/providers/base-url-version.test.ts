import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import { splitApiVersion } from "../../src/providers/shared/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const hello = {
  systemPrompt: "S",
  context: { messages: [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }] },
  tools: [],
};

describe("base URLs written with the API version the SDK appends itself", () => {
  it("splits a trailing version segment, with or without a slash, and leaves other paths alone", () => {
    expect(splitApiVersion("http://h:1/v1/", ["v1"])).toEqual({ base: "http://h:1", version: "v1" });
    expect(splitApiVersion("http://h:1/proxy/v1beta", ["v1beta", "v1"])).toEqual({
      base: "http://h:1/proxy",
      version: "v1beta",
    });
    expect(splitApiVersion("http://h:1/anthropic", ["v1"])).toEqual({ base: "http://h:1/anthropic" });
  });

  it("reaches Anthropic's /v1/messages when ANTHROPIC_BASE_URL already ends in /v1", async () => {
    const server = await startFakeAnthropicServer();
    servers.push(server);
    server.enqueue({ type: "text", text: "reached" });
    const client = createAnthropicClient({
      provider: "anthropic",
      model: "m",
      apiKey: "k",
      baseURL: `${server.url}/v1`,
    });
    const message = await client.stream(hello);
    expect(message.content).toEqual([{ type: "text", text: "reached" }]);
    expect(server.requests[0]?.path).toBe("/v1/messages");
  });

  it("reaches Gemini's /v1beta models path when the base URL already ends in /v1beta", async () => {
    const server = await startFakeGeminiServer();
    servers.push(server);
    server.enqueue({ type: "text", text: "reached" });
    const client = createGeminiClient({
      provider: "google",
      model: "g",
      apiKey: "k",
      baseURL: `${server.url}/v1beta/`,
    });
    const message = await client.stream(hello);
    expect(message.content.filter((block) => block.type === "text")).toEqual([
      { type: "text", text: "reached" },
    ]);
    expect(server.requests[0]?.path).toMatch(/^\/v1beta\/models\/g:streamGenerateContent/);
  });
});
