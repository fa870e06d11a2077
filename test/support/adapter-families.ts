import type { AssistantMessage, ModelClient } from "../../src/core/index.js";
import type { AdapterOptions } from "../../src/providers/adapter-options.js";
import { createAnthropicClient } from "../../src/providers/anthropic/index.js";
import { createGeminiClient } from "../../src/providers/google-gemini/index.js";
import { createOpenAIChatClient } from "../../src/providers/openai-chat/index.js";
import { createOpenAIResponsesClient } from "../../src/providers/openai-responses/index.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";
import {
  startFakeAnthropicServer,
  startFakeGeminiServer,
  startFakeOpenAIChatServer,
  startFakeOpenAIResponsesServer,
} from "../../src/simulator/index.js";

/** One of the four adapters, with the fake server that speaks its wire format. */
export interface AdapterFamily {
  /** The adapter's api name, as in a model spec. */
  name: "anthropic" | "openai-chat" | "openai-responses" | "google-gemini";
  startServer: (options?: FakeServerOptions) => Promise<FakeServer>;
  createClient: (options: AdapterOptions) => ModelClient;
  /** A provider and model as this adapter's own tests name them. */
  provider: string;
  model: string;
  /** The api its assistant messages record. */
  api: AssistantMessage["api"];
  /** A model that reasons, so requests carry what a reasoning model is sent. */
  reasoningModel: string;
  /** The variable the vendor SDK would read a key from, were it allowed to. */
  keyVariable: string;
  /** The request headers that carry `key`. */
  keyHeaders: (key: string) => Record<string, string>;
  /** Where a streamed request for `model` goes. */
  streamPath: string;
  /** What this wire's usage adds to the normalised figures when it reports zero of them. */
  zeroUsage: Record<string, number>;
  /** The output limit a request body carries, in this wire's field. */
  outputLimit: (body: unknown) => unknown;
  /** This wire format's keepalive, as real servers send it. */
  keepalive: string;
}

/** The four adapters every cross-adapter suite (the contract, the deadlines) runs against. */
export const ADAPTER_FAMILIES: readonly AdapterFamily[] = [
  {
    name: "anthropic",
    startServer: startFakeAnthropicServer,
    createClient: createAnthropicClient,
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    api: "anthropic-messages",
    reasoningModel: "claude-sonnet-4-5",
    keyVariable: "ANTHROPIC_API_KEY",
    keyHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    streamPath: "/v1/messages",
    zeroUsage: {},
    outputLimit: (body) => (body as { max_tokens?: number }).max_tokens,
    keepalive: 'event: ping\ndata: {"type": "ping"}\n\n',
  },
  {
    name: "openai-chat",
    startServer: startFakeOpenAIChatServer,
    createClient: createOpenAIChatClient,
    provider: "local",
    model: "qwen3-coder",
    api: "openai-chat",
    reasoningModel: "qwen3-coder",
    keyVariable: "OPENAI_API_KEY",
    keyHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    streamPath: "/v1/chat/completions",
    zeroUsage: {},
    outputLimit: (body) => (body as { max_tokens?: number }).max_tokens,
    keepalive: ": OPENROUTER PROCESSING\n\n",
  },
  {
    name: "openai-responses",
    startServer: startFakeOpenAIResponsesServer,
    createClient: createOpenAIResponsesClient,
    provider: "openai",
    model: "gpt-4.1",
    api: "openai-responses",
    reasoningModel: "gpt-5",
    keyVariable: "OPENAI_API_KEY",
    keyHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    streamPath: "/v1/responses",
    zeroUsage: { cacheReadTokens: 0, reasoningTokens: 0 },
    outputLimit: (body) => (body as { max_output_tokens?: number }).max_output_tokens,
    keepalive: 'data: {"type": "keepalive"}\n\n',
  },
  {
    name: "google-gemini",
    startServer: startFakeGeminiServer,
    createClient: createGeminiClient,
    provider: "google",
    model: "gemini-2.5-flash",
    api: "google-gemini",
    reasoningModel: "gemini-2.5-flash",
    keyVariable: "GEMINI_API_KEY",
    keyHeaders: (key) => ({ "x-goog-api-key": key }),
    streamPath: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    zeroUsage: {},
    outputLimit: (body) =>
      (body as { generationConfig?: { maxOutputTokens?: number } }).generationConfig?.maxOutputTokens,
    keepalive: ": ping\n\n",
  },
];
