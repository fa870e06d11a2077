import { type ByteBody, peekBody, readSseEvents } from "../shared/index.js";
import { jsonArrayElements } from "./json-array-elements.js";

/**
 * The payloads of a 200 Gemini body, one per streamed response, as each arrives, whatever variant
 * the server sent: server-sent events (behind comments or `event:` lines, data split over lines,
 * any line ending), the JSON array `streamGenerateContent` sends without `alt=sse`, or the single
 * object of a plain `generateContent`. Blank data and `[DONE]` are no payload. Stopping early
 * closes the body.
 */
export async function* geminiPayloads(body: ByteBody): AsyncGenerator<string> {
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
