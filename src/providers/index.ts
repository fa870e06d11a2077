// The adapter factories are not re-exported: each adapter statically imports its vendor SDK, and
// createModelClient imports only the one a model needs. Import an adapter from its own folder.
export type { AdapterOptions } from "./adapter-options.js";
export { classifyProviderError, type ProviderFailure } from "./classify-provider-error.js";
export { type CreateModelClientOptions, createModelClient } from "./create-model-client.js";
export { BUILT_IN_PROVIDER_NAMES, BUILT_IN_PROVIDERS, type BuiltInProvider } from "./model-catalog.js";
export { abortedError, networkError, parseRetryAfter, providerErrorFromResponse } from "./provider-error.js";
export {
  type ModelSpec,
  type ProviderConfigEntry,
  type ProvidersConfig,
  parseModelId,
  type ResolveModelSpecOptions,
  resolveModelSpec,
} from "./resolve-model-spec.js";
export { isMissingRoute, withChatFallback } from "./with-chat-fallback.js";
export {
  type RetryHooks,
  type RetryOptions,
  resolveRetryOptions,
  retryDelayMs,
  withRetry,
} from "./with-retry.js";
