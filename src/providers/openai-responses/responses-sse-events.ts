import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { providerErrorFromResponse } from "../provider-error.js";
import { type ByteBody, malformedAnswer, readSseEvents } from "../shared/index.js";

/**
 * The Responses events of a 200 stream, each read from its JSON `type` (an `event:` line is
 * optional). A payload with no `type` that carries `error`, or comes as `event: error`, is a
 * gateway failing inside the stream: classified from the payload verbatim. Keep-alives and an
 * OpenAI-style `[DONE]` are skipped.
 */
export async function* responsesSseEvents(
  body: ByteBody,
  provider: string,
): AsyncGenerator<ResponseStreamEvent> {
  for await (const event of readSseEvents(body)) {
    const data = event.data.trim();
    if (data === "" || data === "[DONE]") continue;
    const payload = JSON.parse(data) as { type?: unknown; error?: unknown } | null;
    if (typeof payload !== "object" || payload === null || Array.isArray(payload))
      throw malformedAnswer(provider, `an event that is not a JSON object: ${data.slice(0, 80)}`);
    if (typeof payload.type === "string") {
      yield payload as ResponseStreamEvent;
    } else if (event.event === "error" || (payload.error !== undefined && payload.error !== null)) {
      throw providerErrorFromResponse({ body: data, provider });
    } else if (event.event !== undefined) {
      yield { ...payload, type: event.event } as ResponseStreamEvent;
    }
  }
}
