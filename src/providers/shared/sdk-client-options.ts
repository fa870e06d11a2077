import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";

/** Stands in for a missing key: keyless local endpoints need none, but the SDKs refuse an empty one. */
export const KEYLESS_PLACEHOLDER = "no-key";

/** Generous: the SDK's deadline only guards the wait for headers; the idle watchdog catches stalls. */
const SDK_TIMEOUT_MS = 60 * 60 * 1000;

export interface SdkClientOptions {
  apiKey: string;
  baseURL: string;
  defaultHeaders?: Record<string, string>;
  fetch: typeof globalThis.fetch;
  maxRetries: 0;
  timeout: number;
}

/**
 * The constructor options the Anthropic and OpenAI SDKs share. Credentials and endpoints come from
 * the adapter options alone (the providers layer already read the environment, and an SDK must not
 * fall back to its own variables); the SDK's retries are off because ours honour retry-after and
 * never resend an overflow.
 */
export function sdkClientOptions(
  options: AdapterOptions,
  defaultBaseURL: string,
  fetch: typeof globalThis.fetch,
): SdkClientOptions {
  return {
    apiKey: options.apiKey ?? KEYLESS_PLACEHOLDER,
    baseURL: options.baseURL ?? defaultBaseURL,
    ...optional("defaultHeaders", options.headers),
    fetch,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
  };
}
