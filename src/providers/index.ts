export type { AdapterOptions } from "./adapter-options.js";
export { createAnthropicClient } from "./anthropic/index.js";
export { classifyProviderError, type ProviderFailure } from "./classify-provider-error.js";
export { type CreateModelClientOptions, createModelClient } from "./create-model-client.js";
export { createGeminiClient } from "./google-gemini/index.js";
export { BUILT_IN_PROVIDER_NAMES, BUILT_IN_PROVIDERS, type BuiltInProvider } from "./model-catalog.js";
export { createOpenAIChatClient } from "./openai-chat/index.js";
export { createOpenAIResponsesClient } from "./openai-responses/index.js";
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
