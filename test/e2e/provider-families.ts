import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type { FakeReply, FakeServer } from "../../src/simulator/fake-provider-types.js";
import type { FixtureEntry } from "../support/provider-error-fixtures.js";

/** How the CLI reaches one provider family's fake server: model id, environment, project config. */
export interface ProviderFamily {
  name: string;
  model: string;
  start: () => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
  config: (server: FakeServer) => Record<string, unknown>;
  /** The fixture entry whose real overflow body this family is tested with, and how it arrives. */
  overflow: (fixtures: FixtureEntry[]) => FakeReply;
}

function pick(
  fixtures: FixtureEntry[],
  api: string,
  test: (e: FixtureEntry) => boolean = () => true,
): FixtureEntry {
  const entry = fixtures.find((e) => e.api === api && e.is_overflow && e.scored !== false && test(e));
  if (entry === undefined) throw new Error(`no scored overflow fixture for ${api}`);
  return entry;
}

function asHttpError(entry: FixtureEntry): FakeReply {
  return { type: "error", status: entry.status ?? 400, body: entry.body };
}

export const PROVIDER_FAMILIES: ProviderFamily[] = [
  {
    name: "Anthropic Messages",
    model: "anthropic/claude-test",
    start: () => startFakeAnthropicServer(),
    env: (server) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }),
    config: () => ({}),
    overflow: (fixtures) => asHttpError(pick(fixtures, "anthropic-messages", (e) => e.status === 400)),
  },
  {
    name: "OpenAI Responses",
    model: "openai/gpt-test",
    start: () => startFakeOpenAIResponsesServer(),
    env: (server) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url }),
    config: () => ({}),
    // The real body arrived as a failure event inside a 200 stream.
    overflow: (fixtures) => ({ type: "stream-error", body: pick(fixtures, "openai-responses").body }),
  },
  {
    name: "Google Gemini",
    model: "google/gemini-test",
    start: () => startFakeGeminiServer(),
    env: (server) => ({ GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url }),
    config: () => ({}),
    overflow: (fixtures) => asHttpError(pick(fixtures, "gemini", (e) => e.status === 400)),
  },
  {
    name: "OpenAI-compatible (llama.cpp server) via config providers",
    model: "local/llama-test",
    start: () => startFakeOpenAIChatServer(),
    env: () => ({}),
    config: (server) => ({ providers: { local: { base_url: server.url } } }),
    overflow: (fixtures) =>
      asHttpError(pick(fixtures, "openai-compatible", (e) => e.provider === "llama.cpp server")),
  },
  {
    name: "OpenAI-compatible (vLLM) via config providers",
    model: "local/vllm-test",
    start: () => startFakeOpenAIChatServer(),
    env: () => ({}),
    config: (server) => ({ providers: { local: { base_url: server.url } } }),
    overflow: (fixtures) => asHttpError(pick(fixtures, "openai-compatible", (e) => e.provider === "vLLM")),
  },
  {
    name: "OpenAI-compatible (OpenRouter nested raw) via config providers",
    model: "router/some-model",
    start: () => startFakeOpenAIChatServer(),
    env: () => ({}),
    config: (server) => ({ providers: { router: { base_url: server.url } } }),
    overflow: (fixtures) =>
      asHttpError(
        pick(fixtures, "openai-compatible", (e) => e.provider === "OpenRouter" && e.body.includes("raw")),
      ),
  },
];
