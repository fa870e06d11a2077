import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { providerErrorFromResponse } from "../provider-error.js";
import { malformedAnswer, parseWireJson } from "../shared/check-wire.js";
import { type ByteBody, readSseEvents } from "../shared/index.js";

/**
 * The Messages events of a 200 stream. The event's kind is read from its JSON `type`, so servers
 * that send bare `data:` lines (no `event:` line, which the SDK would skip) work; a payload without
 * a `type` takes the `event:` name. `ping` and keep-alives pass through for the reader to ignore.
 * An error event (`event: error` or `"type": "error"`) throws, classified from its payload verbatim.
 */
export async function* anthropicSseEvents(
  body: ByteBody,
  provider: string,
): AsyncGenerator<RawMessageStreamEvent> {
  for await (const event of readSseEvents(body)) {
    const data = event.data.trim();
    // Some gateways end with OpenAI's terminator; message_stop has already said it all.
    if (data === "" || data === "[DONE]") continue;
    const payload = parseWireJson(data, provider, "an event") as { type?: unknown } | null;
    if (typeof payload !== "object" || payload === null || Array.isArray(payload))
      throw malformedAnswer(provider, `an event that is not a JSON object: ${data.slice(0, 80)}`);
    if (event.event === "error" || payload.type === "error") {
      throw providerErrorFromResponse({ body: data, provider });
    }
    const typed = typeof payload.type === "string" ? payload : { ...payload, type: event.event };
    yield typed as RawMessageStreamEvent;
  }
}
