import type { AssistantMessage, ModelClient, StreamOptions } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { providerErrorFromResponse } from "../provider-error.js";
import {
  attemptErrorToPanto,
  createAdapterClient,
  jsonRequestHeaders,
  postJson,
  type RequestWatchdog,
  readBodyText,
  type SniffedBody,
  sniffResponseBody,
  splitApiVersion,
} from "../shared/index.js";
import { anthropicSseEvents } from "./anthropic-sse-events.js";
import { readAnthropicStream } from "./read-anthropic-stream.js";
import { renderAnthropicRequest } from "./render-anthropic-request.js";
import { isWholeMessage, wholeMessageEvents } from "./whole-message-events.js";

const DEFAULT_BASE_URL = "https://api.anthropic.com";
/** The Messages API version whose request and event shapes the renderer and reader follow (the SDK's). */
const ANTHROPIC_VERSION = "2026-10-21";

/**
 * A ModelClient for the Anthropic Messages API (and Anthropic-compatible endpoints). The base URL
 * is the host without /v1, as with ANTHROPIC_BASE_URL; /v1/messages is appended. A streamed request
 * is one POST through node:http (see postJson): the vendor SDK's client, its tracing and the fetch
 * it needs cost a short run more than all the rest of panto, for a request this adapter renders and
 * an answer it reads itself. The SDK still lists models, loaded only then.
 */
export function createAnthropicClient(options: AdapterOptions): ModelClient {
  const { provider, model } = options;
  const base = withoutVersion(options).baseURL ?? DEFAULT_BASE_URL;
  const url = `${base}${base.endsWith("/") ? "" : "/"}v1/messages`;
  const headers = jsonRequestHeaders(options, { "anthropic-version": ANTHROPIC_VERSION });
  return createAdapterClient(options, {
    defaultBaseURL: DEFAULT_BASE_URL,
    attempt: async (request, watchdog, onEvent) => {
      const params = renderAnthropicRequest(request, { provider });
      const answer = await postJson(url, {
        provider,
        headers,
        body: JSON.stringify(params),
        signal: watchdog.signal,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      });
      watchdog.responded();
      if (answer.status < 200 || answer.status > 299) {
        const body = await readBodyText(answer.body);
        throw providerErrorFromResponse({ status: answer.status, body, provider, headers: answer.headers });
      }
      return readAnswer(await sniffResponseBody(answer.body), { provider, model, watchdog, onEvent });
    },
    toPantoError: (error) => attemptErrorToPanto(error, provider),
    // GET /v1/models, every page.
    listModels: async (signal) => {
      const { listAnthropicModels } = await import("./list-anthropic-models.js");
      return listAnthropicModels(withoutVersion(options), DEFAULT_BASE_URL, signal);
    },
  });
}

/** A base URL written with /v1 (as some proxies document it) loses it: /v1/messages is appended. */
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
