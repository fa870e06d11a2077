import type { AssistantMessage, ModelClient, ModelRequest, StreamOptions } from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { otherError } from "../provider-error.js";
import { createAdapterClient, type RequestWatchdog } from "../shared/index.js";
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
  return createAdapterClient(options, {
    defaultBaseURL: DEFAULT_BASE_URL,
    attempt: (request, watchdog, onEvent) => streamOnce(request, watchdog, options, onEvent),
    // streamOnce classifies its own failures (it holds the attempt's captured bodies).
    toPantoError: (error) => otherError(options.provider, error),
    listModels: (signal) => listGeminiModels(options, signal),
  });
}

async function streamOnce(
  request: ModelRequest,
  watchdog: RequestWatchdog,
  options: AdapterOptions,
  onEvent: StreamOptions["onEvent"],
): Promise<AssistantMessage> {
  const { provider } = options;
  // One capture per attempt: "the last failure seen" must not mix attempts or concurrent streams.
  const capture = captureGeminiFailures(options.fetch ?? globalThis.fetch);
  let streaming = false;
  try {
    const chunks = await geminiSdk(options, capture.fetch).models.generateContentStream(
      renderGeminiRequest(request, { provider, abortSignal: watchdog.signal }),
    );
    streaming = true;
    watchdog.responded();
    const reader = new GeminiStreamReader({ provider, model: options.model }, onEvent);
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
