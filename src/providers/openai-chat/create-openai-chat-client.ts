import {
  type AssistantMessage,
  type ModelClient,
  type ModelRequest,
  optional,
  type StreamOptions,
} from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { networkError, providerErrorFromResponse } from "../provider-error.js";
import { malformedAnswer } from "../shared/check-wire.js";
import {
  attemptErrorToPanto,
  createAdapterClient,
  type RequestWatchdog,
  readSseEvents,
  type SniffedBody,
} from "../shared/index.js";
import type { ChatChunk } from "./chat-chunk.js";
import {
  type ChatCompletionBody,
  ChatStreamAccumulator,
  completionAsChunk,
} from "./chat-stream-accumulator.js";
import { OPENAI_BASE_URL } from "./openai-base-url.js";
import { postOpenAI } from "./post-openai.js";
import { rejectsStreamOptions } from "./rejects-stream-options.js";
import { renderOpenAIChatRequest } from "./render-openai-chat-request.js";

/**
 * A ModelClient for OpenAI Chat Completions and every OpenAI-compatible server (Ollama, llama.cpp,
 * vLLM, LM Studio, OpenRouter, Groq, xAI, DeepSeek, Mistral, Together...). The base URL includes
 * /v1, as with OPENAI_BASE_URL. A request is one POST through node:http (postOpenAI); the OpenAI
 * SDK only lists models, loaded then.
 */
export function createOpenAIChatClient(options: AdapterOptions): ModelClient {
  const { provider } = options;
  // Remembered per client: a server that rejected stream_options once will again.
  let includeUsage = true;
  const once = async (
    request: ModelRequest,
    watchdog: RequestWatchdog,
    onEvent: StreamOptions["onEvent"],
  ): Promise<AssistantMessage> => {
    const params = renderOpenAIChatRequest(request, { provider, includeUsage });
    const answer = await postOpenAI(options, "chat/completions", params, watchdog);
    if (!answer.ok) {
      if (!includeUsage || !rejectsStreamOptions(answer.status, answer.text)) throw answer.error;
      includeUsage = false;
      return await once(request, watchdog, onEvent);
    }
    return readAnswer(answer.body, watchdog, new ChatStreamAccumulator(options, onEvent), provider);
  };
  return createAdapterClient(options, {
    defaultBaseURL: OPENAI_BASE_URL,
    attempt: once,
    toPantoError: (error) => attemptErrorToPanto(error, provider),
    listModels: async (signal) => {
      const { openAISdk } = await import("./openai-sdk.js");
      const { listModelIds } = openAISdk(options);
      return listModelIds((client) => client.models.list(optional("signal", signal)));
    },
  });
}

async function readAnswer(
  sniffed: SniffedBody,
  watchdog: RequestWatchdog,
  accumulator: ChatStreamAccumulator,
  provider: string,
): Promise<AssistantMessage> {
  if (sniffed.type === "json") {
    // A server that ignored stream: true, or a gateway error wrapped in a 200.
    const body = JSON.parse(sniffed.text) as (ChatCompletionBody & { error?: unknown }) | null;
    if (!isObject(body))
      throw malformedAnswer(provider, `a body that is not a JSON object: ${sniffed.text.slice(0, 80)}`);
    if (body.error !== undefined && body.error !== null)
      throw providerErrorFromResponse({ body: sniffed.text, provider });
    accumulator.apply(completionAsChunk(body));
    return accumulator.finish();
  }
  try {
    for await (const event of readSseEvents(sniffed.body)) {
      // Stop at the terminator: some servers keep the connection open after it.
      if (event.data.trim() === "[DONE]") {
        accumulator.markDone();
        break;
      }
      const chunk = parseChatChunk(event.data, provider);
      if (chunk === undefined) continue;
      // A chunk with no choices and no usage is a keepalive, not progress.
      if ((chunk.choices?.length ?? 0) > 0 || (chunk.usage !== undefined && chunk.usage !== null))
        watchdog.progress();
      accumulator.apply(chunk);
    }
  } catch (error) {
    // A server that sent its finish_reason but neither [DONE] nor the end of the response: once
    // it has been idle for the timeout, the answer it gave is still whole.
    if (!(watchdog.timedOut && accumulator.finished)) throw error;
  }
  if (!accumulator.finished) {
    if (watchdog.signal.aborted) throw new Error("stream aborted");
    throw networkError(provider, new Error("the stream ended without a finish_reason"), "truncated stream");
  }
  return accumulator.finish();
}

/**
 * One event's chunk; undefined for an empty keep-alive. A chunk carrying `error` is the server
 * failing inside a 200 stream (OpenRouter, vLLM): classified from the payload verbatim. Data that
 * is not JSON throws a SyntaxError, which reads as a cut-off stream.
 */
function parseChatChunk(data: string, provider: string): ChatChunk | undefined {
  if (data.trim() === "") return undefined;
  const chunk = JSON.parse(data) as (ChatChunk & { error?: unknown }) | null;
  if (!isObject(chunk))
    throw malformedAnswer(provider, `a chunk that is not a JSON object: ${data.slice(0, 80)}`);
  if (chunk.error !== undefined && chunk.error !== null)
    throw providerErrorFromResponse({ body: data, provider });
  return chunk;
}

function isObject<T>(value: T | null): value is T {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
