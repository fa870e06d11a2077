import type { ModelClient } from "../core/index.js";
import { optional } from "../core/index.js";
import type { AdapterOptions } from "./adapter-options.js";
import { lazyModelClient } from "./lazy-model-client.js";
import { modelAcceptsImages } from "./model-accepts-images.js";
import { type ModelSpec, type ProvidersConfig, resolveModelSpec } from "./resolve-model-spec.js";
import { queryContextWindow, serverKind } from "./shared/query-context-window.js";
import { withChatFallback } from "./with-chat-fallback.js";
import { withImageCheck } from "./with-image-check.js";
import type { RetryOptions } from "./with-retry.js";

export interface CreateModelClientOptions {
  /** Config "providers" (custom endpoints, or overrides of built-ins by name). */
  config?: ProvidersConfig;
  /** Where keys and base-URL overrides are read; default process.env. */
  env?: NodeJS.ProcessEnv;
  retry?: RetryOptions;
  maxOutputTokens?: number;
  /** Deadlines of each request attempt; see AdapterOptions. */
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** Removes known secrets from every error message the adapters produce. */
  redact?: (text: string) => string;
  /** Told once when the openai provider falls back from the Responses to the Chat Completions API. */
  onWarning?: (message: string) => void;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
  /** Where windows servers reported are kept between runs, and whether to ask servers at all. */
  contextWindows?: ContextWindowStore;
  /** Config `models.<id>.images`: whether the model takes images, over what panto knows of it. */
  acceptsImages?: boolean;
}

/**
 * The context windows OpenAI-compatible servers reported, kept per base URL and model (in panto's
 * home) so a run that does not ask (print and JSON modes) still knows them.
 */
export interface ContextWindowStore {
  /** False: never ask a server, only read what an earlier run stored. */
  probe: boolean;
  read(baseURL: string, model: string): Promise<number | undefined>;
  write(baseURL: string, model: string, tokens: number): Promise<void>;
}

/**
 * The ModelClient for a "provider/model" id. Everything is checked here, before any request: a
 * malformed id or unknown provider throws PantoError invalid_request, a missing key throws
 * PantoError auth naming the variable to set.
 */
export function createModelClient(id: string, options: CreateModelClientOptions = {}): ModelClient {
  const spec = resolveModelSpec(id, {
    ...optional("config", options.config),
    ...optional("env", options.env),
  });
  const accepts = options.acceptsImages ?? modelAcceptsImages(spec.api, spec.model);
  return withImageCheck(createClientFor(spec, options), accepts);
}

function createClientFor(spec: ModelSpec, options: CreateModelClientOptions): ModelClient {
  const adapterOptions = toAdapterOptions(spec, options);
  if (spec.api === "openai-responses" && spec.chatFallback === true) {
    return withChatFallback(
      createAdapter("openai-responses", adapterOptions),
      () => createAdapter("openai-chat", adapterOptions),
      options.onWarning,
    );
  }
  const client = createAdapter(spec.api, adapterOptions);
  return spec.api === "openai-chat" && adapterOptions.baseURL !== undefined
    ? withServerContextWindow(client, adapterOptions, adapterOptions.baseURL, options.contextWindows)
    : client;
}

/**
 * Adds `contextWindow()`, asked of the server once (lazily, without loading the SDK, at the
 * endpoint its kind has) and remembered; with a store, what the server said is kept for later runs,
 * and a store that does not probe answers from what was kept.
 */
function withServerContextWindow(
  client: ModelClient,
  options: AdapterOptions,
  baseURL: string,
  store: ContextWindowStore | undefined,
): ModelClient {
  let window: Promise<number | undefined> | undefined;
  const kind = serverKind(options.provider, baseURL);
  const ask = () =>
    queryContextWindow({
      baseURL,
      model: options.model,
      ...optional("kind", kind),
      ...optional("apiKey", options.apiKey),
      ...optional("headers", options.headers),
      ...optional("fetch", options.fetch),
    });
  const known = async (): Promise<number | undefined> => {
    if (store === undefined) return await ask();
    if (!store.probe) return await store.read(baseURL, options.model);
    const reported = await ask();
    if (reported === undefined) return await store.read(baseURL, options.model);
    await store.write(baseURL, options.model, reported).catch(() => undefined);
    return reported;
  };
  // The adapter clients are plain objects: spreading keeps every member they have.
  return {
    ...client,
    ...(isSelfHosted(baseURL) ? { selfHosted: true } : {}),
    contextWindow: () => {
      window ??= known().catch(() => undefined);
      return window;
    },
  };
}

/** A base URL on this machine or a private network (loopback, RFC 1918, link-local, `.local`). */
export function isSelfHosted(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local")) return true;
  if (host.includes(":")) return host === "::1" || /^(?:fe80|fc|fd)/.test(host);
  const octets = host.split(".").map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet))) return false;
  const [a = -1, b = -1] = octets;
  return (
    a === 127 ||
    a === 10 ||
    a === 0 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}

function createAdapter(api: ModelSpec["api"], options: AdapterOptions): ModelClient {
  return lazyModelClient(options, () => loadAdapter(api, options));
}

/** Imports only the adapter (and SDK) this model needs. */
async function loadAdapter(api: ModelSpec["api"], options: AdapterOptions): Promise<ModelClient> {
  switch (api) {
    case "anthropic-messages":
      return (await import("./anthropic/index.js")).createAnthropicClient(options);
    case "openai-chat":
      return (await import("./openai-chat/index.js")).createOpenAIChatClient(options);
    case "openai-responses":
      return (await import("./openai-responses/index.js")).createOpenAIResponsesClient(options);
    case "google-gemini":
      return (await import("./google-gemini/index.js")).createGeminiClient(options);
  }
}

function toAdapterOptions(spec: ModelSpec, options: CreateModelClientOptions): AdapterOptions {
  return {
    provider: spec.provider,
    model: spec.model,
    ...optional("apiKey", spec.apiKey),
    ...optional("baseURL", spec.baseURL),
    ...optional("headers", spec.headers),
    ...optional("retry", options.retry),
    ...optional("firstByteTimeoutMs", options.firstByteTimeoutMs),
    ...optional("idleTimeoutMs", options.idleTimeoutMs),
    ...optional("requestTimeoutMs", options.requestTimeoutMs),
    ...optional("redact", options.redact),
    ...optional("maxOutputTokens", options.maxOutputTokens),
    ...optional("fetch", options.fetch),
  };
}
