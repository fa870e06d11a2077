/** A 200 body as it turned out to be: one JSON document, or an event stream to read on. */
export type SniffedBody =
  | { type: "json"; text: string }
  | { type: "stream"; body: ReadableStream<Uint8Array> };

/** A body after its first non-blank byte was looked at: what it showed, and the whole body still unread. */
export interface PeekedBody {
  /** Whether the first non-blank byte is `{` or `[` (an SSE body never starts so). */
  startsAsJson: boolean;
  body: ReadableStream<Uint8Array>;
}

/** Blanks, and the bytes of a UTF-8 byte-order mark, which some Windows-hosted servers send first. */
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);
const JSON_START = new Set([0x7b, 0x5b]); // { [

/**
 * Tells a JSON answer from an event stream by its first non-blank byte rather than by its
 * content-type, which servers get wrong both ways: one that ignores `stream: true` may label its
 * JSON text/plain, and an SSE body never starts with `{` or `[`. A JSON body is read whole; a stream
 * is handed back unconsumed. An empty body counts as an (empty, so cut-off) stream.
 */
export async function sniffResponseBody(body: ReadableStream<Uint8Array>): Promise<SniffedBody> {
  const peeked = await peekBody(body);
  if (!peeked.startsAsJson) return { type: "stream", body: peeked.body };
  return { type: "json", text: await new Response(peeked.body).text() };
}

/** Reads up to the first non-blank byte and hands back the body with those bytes put back in front. */
export async function peekBody(body: ReadableStream<Uint8Array>): Promise<PeekedBody> {
  const reader = body.getReader();
  const seen: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { startsAsJson: false, body: replay(seen, reader) };
    seen.push(value);
    const first = value.find((byte) => !WHITESPACE.has(byte));
    if (first !== undefined) return { startsAsJson: JSON_START.has(first), body: replay(seen, reader) };
  }
}

/** The bytes already read, then the rest of the body; cancelling it cancels the original. */
function replay(
  seen: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array>,
): ReadableStream<Uint8Array> {
  const pending = [...seen];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending.shift();
      if (next !== undefined) {
        controller.enqueue(next);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
