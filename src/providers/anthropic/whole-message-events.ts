import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";

/** A whole (unstreamed) message, as a server that ignored `stream: true` sends it. */
export interface AnthropicWholeMessage {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  stop_reason?: unknown;
  usage?: unknown;
}

/** Whether a 200 JSON body is a message (else it is an error or something else to classify). */
export function isWholeMessage(body: unknown): body is AnthropicWholeMessage {
  if (typeof body !== "object" || body === null) return false;
  const message = body as AnthropicWholeMessage;
  return message.type === "message" || (message.role === "assistant" && Array.isArray(message.content));
}

/**
 * The events that would have streamed a whole message, so one reader handles both: every block
 * arrives complete in its content_block_start (tool inputs included), and the usage in message_start.
 */
export async function* wholeMessageEvents(
  message: AnthropicWholeMessage,
): AsyncGenerator<RawMessageStreamEvent> {
  const { content, stop_reason, usage, ...rest } = message;
  const blocks: unknown[] = Array.isArray(content) ? content : [];
  const events: unknown[] = [
    { type: "message_start", message: { ...rest, content: [], stop_reason: null, usage: usage ?? null } },
    ...blocks.flatMap((block, index) => [
      { type: "content_block_start", index, content_block: block },
      { type: "content_block_stop", index },
    ]),
    { type: "message_delta", delta: { stop_reason: stop_reason ?? null } },
    { type: "message_stop" },
  ];
  for (const event of events) yield event as RawMessageStreamEvent;
}
