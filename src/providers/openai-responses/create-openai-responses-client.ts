import OpenAI from "openai";
import type {
  AssistantMessage,
  ModelClient,
  ModelRequest,
  PantoError,
  StreamOptions,
} from "../../core/index.js";
import type { AdapterOptions } from "../adapter-options.js";
import { abortedError, networkError } from "../provider-error.js";
import { captureErrorBodies } from "../shared/capture-error-bodies.js";
import {
  type RequestWatchdog,
  resolveIdleTimeoutMs,
  startRequestWatchdog,
} from "../shared/request-watchdog.js";
import { resolveRetryOptions, withRetry } from "../with-retry.js";
import { mapResponsesError } from "./map-responses-error.js";
import { renderResponsesRequest } from "./render-responses-request.js";
import { ResponsesStreamReader } from "./responses-stream-reader.js";

/** The SDK's own deadline only guards the wait for headers; the idle watchdog does the real work. */
const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000;

/**
 * A ModelClient for the OpenAI Responses API (`POST {baseURL}/responses`, streamed). Retries,
 * idle timeouts and error classification are ours; the SDK's retries are off.
 */
export function createOpenAIResponsesClient(options: AdapterOptions): ModelClient {
  const retry = resolveRetryOptions(options.retry);
  const idleTimeoutMs = resolveIdleTimeoutMs(options.idleTimeoutMs);
  return {
    id: `${options.provider}/${options.model}`,
    provider: options.provider,
    model: options.model,
    stream: (request, streamOptions = {}) =>
      withRetry(
        () => streamOnce(options, { ...request, model: options.model }, streamOptions, idleTimeoutMs),
        retry,
        {
          ...(streamOptions.signal === undefined ? {} : { signal: streamOptions.signal }),
          onRetry: (info) =>
            streamOptions.onEvent?.({
              type: "retry-wait",
              attempt: info.attempt,
              delayMs: info.delayMs,
              reason: info.error.message,
            }),
        },
      ),
  };
}

async function streamOnce(
  options: AdapterOptions,
  request: ModelRequest,
  streamOptions: StreamOptions,
  idleTimeoutMs: number,
): Promise<AssistantMessage> {
  const { provider } = options;
  const capture = captureErrorBodies(options.fetch ?? globalThis.fetch);
  const watchdog = startRequestWatchdog(streamOptions.signal, idleTimeoutMs);
  const interrupted = (): PantoError | undefined =>
    interruption(provider, watchdog, streamOptions.signal, idleTimeoutMs);
  try {
    const client = new OpenAI({
      // Keyless OpenAI-compatible servers still need something in the Authorization header.
      apiKey: options.apiKey ?? (options.baseURL === undefined ? undefined : "no-key"),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.headers === undefined ? {} : { defaultHeaders: options.headers }),
      maxRetries: 0,
      timeout: SDK_TIMEOUT_MS,
      fetch: capture.fetch,
    });
    const maxOutputTokens = request.maxOutputTokens ?? options.maxOutputTokens;
    const body = renderResponsesRequest(
      maxOutputTokens === undefined ? request : { ...request, maxOutputTokens },
    );
    const stream = await client.responses.create(body, { signal: watchdog.signal });
    const reader = new ResponsesStreamReader({ provider, model: options.model }, streamOptions.onEvent);
    for await (const event of stream) {
      watchdog.touch();
      reader.handle(event);
    }
    const message = reader.result();
    if (message !== undefined) return message;
    // The SDK ends the iteration quietly when its signal aborts, so an abort looks like an early end.
    throw (
      interrupted() ?? networkError(provider, "stream ended before response.completed", "truncated stream")
    );
  } catch (error) {
    throw interrupted() ?? mapResponsesError(error, provider, capture);
  } finally {
    watchdog.dispose();
  }
}

/** The error for an attempt the caller cancelled or the idle watchdog gave up on, if either happened. */
export function interruption(
  provider: string,
  watchdog: RequestWatchdog,
  signal: AbortSignal | undefined,
  idleTimeoutMs: number,
): PantoError | undefined {
  if (signal?.aborted) return abortedError(provider);
  if (watchdog.timedOut)
    return networkError(provider, `no data for ${idleTimeoutMs} ms`, "stream idle timeout");
  return undefined;
}
