export type { AdapterOptions } from "./adapter-options.js";
export { classifyProviderError, type ProviderFailure } from "./classify-provider-error.js";
export { abortedError, networkError, parseRetryAfter, providerErrorFromResponse } from "./provider-error.js";
export {
  type RetryHooks,
  type RetryOptions,
  resolveRetryOptions,
  retryDelayMs,
  withRetry,
} from "./with-retry.js";
