import type { AssistantMessage, ModelClient, StreamOptions } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { providerErrorFromResponse } from "../provider-error.js";
import {
  createAdapterClient,
  type RequestWatchdog,
  type SniffedBody,
  splitApiVersion,
  stainlessSdk,
} from "../shared/index.js";
import { ANTHROPIC_ERRORS } from "./anthropic-errors.js";
import { AnthropicSdk } from "./anthropic-sdk.js";
import { anthropicSseEvents } from "./anthropic-sse-events.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";
import { renderAnthropicRequest } from "./render-anthropic-request.js";
import { isWholeMessage, wholeMessageEvents } from "./whole-message-events.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";

/**
 * A ModelClient for the Anthropic Messages API (and Anthropic-compatible endpoints). The base URL
 * is the host without /v1, as with ANTHROPIC_BASE_URL; the SDK appends /v1/messages.
 */
export function createAnthropicClient(options: AdapterOptions): ModelClient {
  const { provider, model } = options;
  const { send, toPantoError, listModelIds } = stainlessSdk(withoutVersion(options), {
    create: (clientOptions) => new AnthropicSdk(clientOptions),
    defaultBaseURL: DEFAULT_BASE_URL,
    errors: ANTHROPIC_ERRORS,
  });
  return createAdapterClient(options, {
    defaultBaseURL: DEFAULT_BASE_URL,
    attempt: async (request, watchdog, onEvent) => {
      const params = renderAnthropicRequest(request, { provider });
      const sniffed = await send(
        (client) => client.messages.create(params, { signal: watchdog.signal }),
        watchdog,
      );
      return readAnswer(sniffed, { provider, model, watchdog, onEvent });
    },
    toPantoError,
    // GET /v1/models, every page.
    listModels: (signal) =>
      listModelIds((client) => client.models.list({ limit: 1000 }, optional("signal", signal))),
  });
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
function readAnswer(
  sniffed: SniffedBody,
  context: { provider: string; model: string; watchdog: RequestWatchdog; onEvent: StreamOptions["onEvent"] },
): Promise<AssistantMessage> {
  const { provider } = context;
  if (sniffed.type === "stream")
    return readAnthropicStream(anthropicSseEvents(sniffed.body, provider), context);
  const body: unknown = JSON.parse(sniffed.text);
  if (isWholeMessage(body)) return readAnthropicStream(wholeMessageEvents(body), context);
  throw providerErrorFromResponse({ body: sniffed.text, provider });
}
