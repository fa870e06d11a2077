import { Anthropic } from "@anthropic-ai/sdk";
import type { AssistantMessage, ModelClient, ModelRequest, StreamOptions } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { networkError, providerErrorFromResponse } from "../provider-error.js";
import {
  captureErrorBodies,
  type RequestWatchdog,
  runWithRetry,
  sdkClientOptions,
  sniffResponseBody,
  splitApiVersion,
} from "../shared/index.js";
import { anthropicErrorToPanto } from "./anthropic-error-to-panto.js";
import { anthropicSseEvents } from "./anthropic-sse-events.js";
import { listAnthropicModels } from "./list-anthropic-models.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";
import { renderAnthropicRequest } from "./render-anthropic-request.js";
import { isWholeMessage, wholeMessageEvents } from "./whole-message-events.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * A ModelClient for the Anthropic Messages API (and Anthropic-compatible endpoints). The base URL
 * is the host without /v1, as with ANTHROPIC_BASE_URL; the SDK appends /v1/messages.
 */
export function createAnthropicClient(options: AdapterOptions): ModelClient {
  const capture = captureErrorBodies(options.fetch);
  let sdk: Anthropic | undefined;
  // Built on first use so that an SDK complaint surfaces as a rejected stream, not a throwing factory.
  const getSdk = (): Anthropic =>
    (sdk ??= new Anthropic(sdkClientOptions(withoutVersion(options), DEFAULT_BASE_URL, capture.fetch)));

  const stream = (
    request: Omit<ModelRequest, "model">,
    streamOptions?: StreamOptions,
  ): Promise<AssistantMessage> => {
    const params = renderAnthropicRequest(request, {
      provider: options.provider,
      model: options.model,
      ...optional("maxOutputTokens", options.maxOutputTokens),
    });
    return runWithRetry(options, streamOptions, {
      attempt: async (watchdog) => {
        const response = await getSdk().messages.create(params, { signal: watchdog.signal }).asResponse();
        watchdog.responded();
        return readResponse(response, {
          provider: options.provider,
          model: options.model,
          watchdog,
          onEvent: streamOptions?.onEvent,
        });
      },
      toPantoError: (error) => anthropicErrorToPanto(error, options.provider, capture),
      endpoint: options.baseURL ?? DEFAULT_BASE_URL,
    });
  };

  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream,
    listModels: (listOptions) =>
      listAnthropicModels(getSdk(), options.provider, capture, listOptions?.signal),
  };
}

/** The SDK appends /v1/messages, so a base URL written with /v1 (as some proxies document it) loses it. */
function withoutVersion(options: AdapterOptions): AdapterOptions {
  if (options.baseURL === undefined) return options;
  return { ...options, baseURL: splitApiVersion(options.baseURL, ["v1"]).base };
}

/**
 * Reads one 200 answer: the event stream, or a JSON body from a server that ignored `stream: true`
 * (a whole message, read like the stream it stands for) or from a gateway (an error, classified).
 */
async function readResponse(
  response: Response,
  context: { provider: string; model: string; watchdog: RequestWatchdog; onEvent: StreamOptions["onEvent"] },
): Promise<AssistantMessage> {
  const { provider } = context;
  if (response.body === null) throw networkError(provider, new Error("no response body"), "empty response");
  const sniffed = await sniffResponseBody(response.body);
  if (sniffed.type === "stream")
    return readAnthropicStream(anthropicSseEvents(sniffed.body, provider), context);
  const body: unknown = JSON.parse(sniffed.text);
  if (isWholeMessage(body)) return readAnthropicStream(wholeMessageEvents(body), context);
  throw providerErrorFromResponse({ body: sniffed.text, provider });
}
