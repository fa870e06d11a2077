import type { AssistantMessage, ModelClient } from "../../core/index.js";
import { optional } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { OPENAI_BASE_URL } from "../openai-chat/openai-base-url.js";
import { postOpenAI } from "../openai-chat/post-openai.js";
import { networkError } from "../provider-error.js";
import {
  attemptErrorToPanto,
  createAdapterClient,
  type RequestWatchdog,
  type SniffedBody,
} from "../shared/index.js";
import { renderResponsesRequest } from "./render-responses-request.js";
import { responsesSseEvents } from "./responses-sse-events.js";
import { ResponsesStreamReader } from "./responses-stream-reader.js";
import { wholeResponseEvent } from "./whole-response-event.js";

/**
 * A ModelClient for the OpenAI Responses API (`POST {baseURL}/responses`, streamed, stateless).
 * Retries, idle timeouts and error classification are ours. A request is one POST through
 * node:http (postOpenAI); the OpenAI SDK only lists models, loaded then.
 */
export function createOpenAIResponsesClient(options: AdapterOptions): ModelClient {
  const { provider, model } = options;
  return createAdapterClient(options, {
    defaultBaseURL: OPENAI_BASE_URL,
    attempt: async (request, watchdog, onEvent) => {
      const answer = await postOpenAI(options, "responses", renderResponsesRequest(request), watchdog);
      if (!answer.ok) throw answer.error;
      return readAnswer(
        answer.body,
        watchdog,
        new ResponsesStreamReader({ provider, model }, onEvent),
        provider,
      );
    },
    toPantoError: (error) => attemptErrorToPanto(error, provider),
    listModels: async (signal) => {
      const { openAISdk } = await import("../openai-chat/openai-sdk.js");
      const { listModelIds } = openAISdk(options);
      return listModelIds((client) => client.models.list(optional("signal", signal)));
    },
  });
}

async function readAnswer(
  sniffed: SniffedBody,
  watchdog: RequestWatchdog,
  reader: ResponsesStreamReader,
  provider: string,
): Promise<AssistantMessage> {
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
