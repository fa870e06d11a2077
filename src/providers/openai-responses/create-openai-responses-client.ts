import OpenAI from "openai";
import type { AssistantMessage, ModelClient, ModelRequest, StreamOptions } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { listOpenAIModels } from "../openai-chat/list-openai-models.js";
import { networkError } from "../provider-error.js";
import {
  captureErrorBodies,
  type RequestWatchdog,
  runWithRetry,
  sdkClientOptions,
  sniffResponseBody,
} from "../shared/index.js";
import { mapResponsesError } from "./map-responses-error.js";
import { renderResponsesRequest } from "./render-responses-request.js";
import { responsesSseEvents } from "./responses-sse-events.js";
import { ResponsesStreamReader } from "./responses-stream-reader.js";
import { wholeResponseEvent } from "./whole-response-event.js";

const DEFAULT_BASE_URL = "https://api.openai.com/v1";

/**
 * A ModelClient for the OpenAI Responses API (`POST {baseURL}/responses`, streamed, stateless).
 * Retries, idle timeouts and error classification are ours; the SDK's retries are off.
 */
export function createOpenAIResponsesClient(options: AdapterOptions): ModelClient {
  const capture = captureErrorBodies(options.fetch);
  let sdk: OpenAI | undefined;
  // Built on first use so that an SDK complaint surfaces as a rejected stream, not a throwing factory.
  const getSdk = (): OpenAI =>
    (sdk ??= new OpenAI(sdkClientOptions(options, DEFAULT_BASE_URL, capture.fetch)));

  const stream = (
    request: Omit<ModelRequest, "model">,
    streamOptions?: StreamOptions,
  ): Promise<AssistantMessage> => {
    const maxOutputTokens = request.maxOutputTokens ?? options.maxOutputTokens;
    const body = renderResponsesRequest({
      ...request,
      model: options.model,
      ...optional("maxOutputTokens", maxOutputTokens),
    });
    return runWithRetry(options, streamOptions, {
      attempt: (watchdog) => streamOnce(getSdk(), body, watchdog, options, streamOptions),
      toPantoError: (error) => mapResponsesError(error, options.provider, capture),
      endpoint: options.baseURL ?? DEFAULT_BASE_URL,
    });
  };

  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream,
    listModels: (listOptions) =>
      listOpenAIModels(getSdk(), listOptions?.signal, (error) =>
        mapResponsesError(error, options.provider, capture),
      ),
  };
}

async function streamOnce(
  sdk: OpenAI,
  body: ReturnType<typeof renderResponsesRequest>,
  watchdog: RequestWatchdog,
  options: AdapterOptions,
  streamOptions: StreamOptions | undefined,
): Promise<AssistantMessage> {
  const { provider } = options;
  const response = await sdk.responses.create(body, { signal: watchdog.signal }).asResponse();
  watchdog.responded();
  const reader = new ResponsesStreamReader({ provider, model: options.model }, streamOptions?.onEvent);
  if (response.body === null) throw networkError(provider, "no response body", "empty response");
  const sniffed = await sniffResponseBody(response.body);
  if (sniffed.type === "json") {
    // A server that ignored stream: true: the whole response, or a gateway's error.
    reader.handle(wholeResponseEvent(sniffed.text, provider));
  } else {
    for await (const event of responsesSseEvents(sniffed.body, provider)) {
      // Keepalive events (and any other type outside response.*) are not progress.
      if (event.type.startsWith("response.")) watchdog.progress();
      reader.handle(event);
      // Stop at the terminal event: some servers keep the connection open after it.
      if (reader.finished) break;
    }
  }
  const message = reader.result();
  if (message !== undefined) return message;
  if (watchdog.signal.aborted) throw new Error("stream aborted");
  throw networkError(provider, "stream ended before response.completed", "truncated stream");
}
