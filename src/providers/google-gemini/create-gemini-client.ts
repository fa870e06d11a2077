import type { AssistantMessage, ModelClient, ModelRequest, StreamOptions } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { otherError, providerErrorFromResponse } from "../provider-error.js";
import {
  createAdapterClient,
  type HttpAnswer,
  postJson,
  type RequestWatchdog,
  readBodyText,
} from "../shared/index.js";
import { geminiAttemptError } from "./gemini-attempt-error.js";
import { GEMINI_BASE_URL } from "./gemini-base-url.js";
import { geminiRequestHeaders } from "./gemini-request-headers.js";
import { geminiModelPath, geminiStreamURL } from "./gemini-stream-url.js";
import { readGeminiStream } from "./read-gemini-stream.js";
import { renderGeminiRequest } from "./render-gemini-request.js";

/**
 * A ModelClient for the Gemini API (`{baseURL}/v1beta/models/{model}:streamGenerateContent`). A
 * streamed request is one POST through node:http (see postJson), as the Gemini SDK sent it less its
 * telemetry headers: the SDK and the fetch it needs cost a short run about 40 ms, for a request this
 * adapter renders and an answer it reads itself. Retries, deadlines and error classification are
 * ours, as they were; the SDK still lists models, loaded only then.
 */
export function createGeminiClient(options: AdapterOptions): ModelClient {
  return createAdapterClient(options, {
    defaultBaseURL: GEMINI_BASE_URL,
    attempt: (request, watchdog, onEvent) => streamOnce(request, watchdog, options, onEvent),
    // streamOnce classifies its own failures (it knows what the stream carried).
    toPantoError: (error) => otherError(options.provider, error),
    // GET {base}/v1beta/models, every page.
    listModels: async (signal) => {
      const { listGeminiModels } = await import("./list-gemini-models.js");
      return listGeminiModels(options, signal);
    },
  });
}

async function streamOnce(
  request: ModelRequest,
  watchdog: RequestWatchdog,
  options: AdapterOptions,
  onEvent: StreamOptions["onEvent"],
): Promise<AssistantMessage> {
  const { provider } = options;
  const answer = await post(request, watchdog, options).catch((error: unknown) => {
    throw geminiAttemptError(error, provider);
  });
  // Only a 2xx answer moves on to the idle deadline: a failed answer's body was read under the
  // first-byte one, as it was through the SDK.
  watchdog.responded();
  // A 204 or 205 has no body at all, not even an empty stream: it fails as it did through the SDK,
  // not retried (the same server answers the same way).
  if (answer.status === 204 || answer.status === 205)
    throw otherError(provider, new Error("Response body is empty"));
  return readGeminiStream(answer.body, { provider, model: options.model, watchdog, onEvent });
}

/**
 * Sends the request and resolves with its 2xx answer; a failed HTTP answer is classified from its
 * raw status, body and headers (retry-after). What the SDK checked before sending (the model's
 * name, that there are contents, the kind of key) is checked in the same order.
 */
async function post(
  request: ModelRequest,
  watchdog: RequestWatchdog,
  options: AdapterOptions,
): Promise<HttpAnswer> {
  const { provider } = options;
  const modelPath = geminiModelPath(request.model, provider);
  const body = JSON.stringify(renderGeminiRequest(request, { provider }));
  const url = geminiStreamURL(options.baseURL, modelPath);
  const answer = await postJson(url, {
    provider,
    headers: geminiRequestHeaders(options),
    body,
    signal: watchdog.signal,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  if (answer.status >= 200 && answer.status <= 299) return answer;
  const text = await readBodyText(answer.body);
  throw providerErrorFromResponse({ status: answer.status, body: text, provider, headers: answer.headers });
}
