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
  /**
   * A stream that sends nothing for this long fails as a retryable network error.
   * Default 120 000 ms; env PANTO_STREAM_IDLE_TIMEOUT_MS overrides.
   */
  idleTimeoutMs?: number;
  maxOutputTokens?: number;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}
