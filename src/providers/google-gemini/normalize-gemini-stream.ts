import { type ByteBody, peekBody, readSseEvents } from "../shared/index.js";
import { jsonArrayElements } from "./json-array-elements.js";

/**
 * Rewrites a 200 Gemini body into the one SSE shape the SDK's parser reads reliably: one compact
 * `data: {...}` line per chunk, blank line after. The SDK only understands events that start with
 * `data:` and end in a blank line, so it would miss chunks behind a comment or an `event:` line,
 * split multi-line data, and fail on the JSON-array body that `streamGenerateContent` sends
 * without `alt=sse` (or a single `generateContent` object). Each payload is also shown to
 * `onPayload` (to spot error payloads the SDK does not raise). Bytes flow through as they arrive.
 */
export function normalizeGeminiStream(
  body: ReadableStream<Uint8Array>,
  onPayload: (payload: string) => void,
): ReadableStream<Uint8Array> {
  const payloads = geminiPayloads(body);
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await payloads.next();
      if (next.done === true) {
        controller.close();
        return;
      }
      onPayload(next.value);
      controller.enqueue(encoder.encode(`data: ${compact(next.value)}\n\n`));
    },
    async cancel() {
      await payloads.return(undefined);
    },
  });
}

async function* geminiPayloads(body: ByteBody): AsyncGenerator<string> {
  const peeked = await peekBody(body);
  if (peeked.startsAsJson) {
    yield* jsonArrayElements(peeked.body);
    return;
  }
  for await (const event of readSseEvents(peeked.body)) {
    const data = event.data.trim();
    if (data !== "" && data !== "[DONE]") yield data;
  }
}

/** One line, so the payload fits in one `data:` line; text that is not JSON is kept as it is. */
function compact(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return payload.replace(/\r?\n|\r/g, " ");
  }
}
