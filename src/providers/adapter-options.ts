import type { RetryOptions } from "./with-retry.js";

/** What every adapter factory (`createAnthropicClient`, `createOpenAIChatClient`, ...) is given. */
export interface AdapterOptions {
  /** Provider name as written in the model id ("anthropic", "openai", "ollama", a config name...). */
  provider: string;
  /** Model name without the provider prefix. */
  model: string;
  /** Undefined for keyless local servers. */
  apiKey?: string;
  /** Overrides the SDK's default endpoint. */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Adapters wrap their single attempt in `withRetry(resolveRetryOptions(retry))`. */
  retry?: RetryOptions;
  /** No response headers within this long: a network error. Default 30 000 ms. */
  firstByteTimeoutMs?: number;
  /**
   * A started response that carries no content (keepalives do not count) for this long fails as a
   * network error. Default 120 000 ms; env PANTO_STREAM_IDLE_TIMEOUT_MS overrides the default.
   */
  idleTimeoutMs?: number;
  /** One attempt taking longer than this in all fails as a network error. Default 600 000 ms. */
  requestTimeoutMs?: number;
  /** Applied to every error message the adapter produces (known secrets -> "[redacted NAME]"). */
  redact?: (text: string) => string;
  maxOutputTokens?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}
