import type { AssistantMessage, StreamOptions } from "../../core/index.js";
import type { ByteBody, RequestWatchdog } from "../shared/index.js";
import { geminiAttemptError, unfinishedStreamError } from "./gemini-attempt-error.js";
import { isErrorPayload, payloadChunk } from "./gemini-chunk.js";
import { geminiPayloads } from "./gemini-payloads.js";
import { GeminiStreamReader } from "./gemini-stream-reader.js";

/**
 * Reads one 200 answer into the assistant message. Gemini has no terminal event: the body is read
 * to its end, and the chunk with a finishReason (or a blocked prompt) is what makes the answer
 * whole. The last error payload the stream carried is kept: it explains a stream that breaks off
 * or ends too soon.
 */
export async function readGeminiStream(
  body: ByteBody,
  context: { provider: string; model: string; watchdog: RequestWatchdog; onEvent: StreamOptions["onEvent"] },
): Promise<AssistantMessage> {
  const { provider, watchdog } = context;
  const reader = new GeminiStreamReader({ provider, model: context.model }, context.onEvent);
  let streamError: string | undefined;
  try {
    try {
      for await (const payload of geminiPayloads(body)) {
        if (isErrorPayload(payload)) streamError = payload;
        const chunk = payloadChunk(payload, provider);
        // A chunk without candidates or usage is a keepalive, not progress.
        if ((chunk.candidates?.length ?? 0) > 0 || chunk.usageMetadata !== undefined) watchdog.progress();
        reader.handle(chunk);
      }
    } catch (error) {
      // A server that sent its finishReason and then held the connection open until the idle
      // timeout still gave a whole answer.
      if (!watchdog.timedOut || reader.result() === undefined) throw error;
    }
    const message = reader.result();
    if (message !== undefined) return message;
    throw unfinishedStreamError(provider, streamError);
  } catch (error) {
    throw geminiAttemptError(error, provider, streamError);
  }
}
