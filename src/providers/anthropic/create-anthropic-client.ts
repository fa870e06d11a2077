import { Anthropic } from "@anthropic-ai/sdk";
import { Stream } from "@anthropic-ai/sdk/core/streaming";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, ModelClient, ModelRequest, StreamOptions } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { providerErrorFromResponse } from "../provider-error.js";
import { captureErrorBodies, runWithRetry } from "../shared/index.js";
import { anthropicErrorToPanto } from "./anthropic-error-to-panto.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";
import { renderAnthropicRequest } from "./render-anthropic-request.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";
const KEYLESS_PLACEHOLDER = "no-key";

/** Generous: the idle watchdog, not this, is what catches a stalled stream. */
const SDK_TIMEOUT_MS = 60 * 60 * 1000;

/**
 * A ModelClient for the Anthropic Messages API (and Anthropic-compatible endpoints). The base URL
 * is the host without /v1, as with ANTHROPIC_BASE_URL; the SDK appends /v1/messages.
 */
export function createAnthropicClient(options: AdapterOptions): ModelClient {
  const capture = captureErrorBodies(options.fetch);
  let sdk: Anthropic | undefined;
  // Built on first use so that an SDK complaint surfaces as a rejected stream, not a throwing factory.
  const getSdk = (): Anthropic =>
    (sdk ??= new Anthropic({
      // Credentials and endpoints come from the options alone (the config layer reads the
      // environment); undefined means a keyless endpoint, which the SDK would otherwise refuse.
      apiKey: options.apiKey ?? KEYLESS_PLACEHOLDER,
      baseURL: options.baseURL ?? DEFAULT_BASE_URL,
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
      fetch: capture.fetch,
      maxRetries: 0,
      timeout: SDK_TIMEOUT_MS,
    }));

  const stream = (
    request: Omit<ModelRequest, "model">,
    streamOptions?: StreamOptions,
  ): Promise<AssistantMessage> => {
    const params = renderAnthropicRequest(request, {
      provider: options.provider,
      model: options.model,
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
    });
    return runWithRetry(options, streamOptions, {
      attempt: async (watchdog) => {
        const response = await getSdk().messages.create(params, { signal: watchdog.signal }).asResponse();
        if (response.headers.get("content-type")?.includes("json")) {
          // Not a stream: a gateway's error (or a completion it refused to stream) in a 200.
          throw providerErrorFromResponse({ body: await response.text(), provider: options.provider });
        }
        const events = Stream.fromSSEResponse<RawMessageStreamEvent>(response, new AbortController());
        return readAnthropicStream(events, {
          provider: options.provider,
          model: options.model,
          watchdog,
          onEvent: streamOptions?.onEvent,
        });
      },
      toPantoError: (error) => anthropicErrorToPanto(error, options.provider, capture),
    });
  };

  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream,
  };
}
