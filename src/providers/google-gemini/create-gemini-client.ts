import {
  type AssistantMessage,
  type ModelClient,
  type ModelRequest,
  optional,
  PantoError,
  type StreamOptions,
} from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { type RequestWatchdog, runWithRetry } from "../shared/index.js";
import { captureGeminiFailures } from "./capture-gemini-failures.js";
import { DEFAULT_BASE_URL, geminiSdk } from "./gemini-sdk.js";
import { GeminiStreamReader } from "./gemini-stream-reader.js";
import { listGeminiModels } from "./list-gemini-models.js";
import { mapGeminiError, unfinishedStreamError } from "./map-gemini-error.js";
import { renderGeminiRequest } from "./render-gemini-request.js";

/**
 * A ModelClient for the Gemini API (`{baseURL}/v1beta/models/{model}:streamGenerateContent`).
 * The SDK neither retries (no retryOptions), nor continues streams by itself, nor times out;
 * retries, the idle watchdog and error classification are ours.
 */
export function createGeminiClient(options: AdapterOptions): ModelClient {
  const stream = (
    request: Omit<ModelRequest, "model">,
    streamOptions?: StreamOptions,
  ): Promise<AssistantMessage> => {
    const maxOutputTokens = request.maxOutputTokens ?? options.maxOutputTokens;
    const fullRequest: ModelRequest = {
      ...request,
      model: options.model,
      ...optional("maxOutputTokens", maxOutputTokens),
    };
    return runWithRetry(options, streamOptions, {
      attempt: (watchdog) => streamOnce(fullRequest, watchdog, options, streamOptions),
      // streamOnce classifies its own failures (it holds the attempt's captured bodies).
      toPantoError: (error) =>
        error instanceof PantoError
          ? error
          : new PantoError("other", `${options.provider}: ${String(error)}`, {
              provider: options.provider,
              cause: error,
            }),
      endpoint: options.baseURL ?? DEFAULT_BASE_URL,
    });
  };
  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream,
    listModels: (listOptions) => listGeminiModels(options, listOptions?.signal),
  };
}

async function streamOnce(
  request: ModelRequest,
  watchdog: RequestWatchdog,
  options: AdapterOptions,
  streamOptions: StreamOptions | undefined,
): Promise<AssistantMessage> {
  const { provider } = options;
  // One capture per attempt: "the last failure seen" must not mix attempts or concurrent streams.
  const capture = captureGeminiFailures(options.fetch ?? globalThis.fetch);
  let streaming = false;
  try {
    const chunks = await geminiSdk(options, capture.fetch).models.generateContentStream(
      renderGeminiRequest(request, watchdog.signal),
    );
    streaming = true;
    watchdog.responded();
    const reader = new GeminiStreamReader({ provider, model: options.model }, streamOptions?.onEvent);
    try {
      for await (const chunk of chunks) {
        // A chunk without candidates or usage is a keepalive, not progress.
        if ((chunk.candidates?.length ?? 0) > 0 || chunk.usageMetadata !== undefined) watchdog.progress();
        reader.handle(chunk);
      }
    } catch (error) {
      // Gemini has no terminal event: a server that sent its finishReason and then held the
      // connection open until the idle timeout still gave a whole answer.
      if (!watchdog.timedOut || reader.result() === undefined) throw error;
    }
    const message = reader.result();
    if (message !== undefined) return message;
    throw unfinishedStreamError(provider, capture);
  } catch (error) {
    throw mapGeminiError(error, { provider, capture, streaming });
  }
}
