/** A body of bytes: a fetch Response's ReadableStream, or anything async iterable (a node:http response). */
export type ByteBody = AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>;

/** A 200 body as it turned out to be: one JSON document, or an event stream to read on. */
export type SniffedBody = { type: "json"; text: string } | { type: "stream"; body: ByteBody };

/** A body after its first non-blank byte was looked at: what it showed, and the whole body still unread. */
export interface PeekedBody {
  /** Whether the first non-blank byte is `{` or `[` (an SSE body never starts so). */
  startsAsJson: boolean;
  body: ByteBody;
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
export async function sniffResponseBody(body: ByteBody): Promise<SniffedBody> {
  const peeked = await peekBody(body);
  if (!peeked.startsAsJson) return { type: "stream", body: peeked.body };
  return { type: "json", text: await readBodyText(peeked.body) };
}

/** Reads up to the first non-blank byte and hands back the body with those bytes put back in front. */
export async function peekBody(body: ByteBody): Promise<PeekedBody> {
  const reader = bytesOf(body)[Symbol.asyncIterator]();
  const seen: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.next();
    if (done === true) return { startsAsJson: false, body: replay(seen, reader) };
    seen.push(value);
    const first = value.find((byte) => !WHITESPACE.has(byte));
    if (first !== undefined) return { startsAsJson: JSON_START.has(first), body: replay(seen, reader) };
  }
}

/** The whole body as UTF-8 text. */
export async function readBodyText(body: ByteBody): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of bytesOf(body)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** The bytes already read, then the rest of the body; stopping early stops (cancels) the original. */
async function* replay(seen: Uint8Array[], reader: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield* seen;
    for (;;) {
      const { done, value } = await reader.next();
      if (done === true) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    // An errored body may refuse to be cancelled too; the error already on its way is the one to keep.
    if (!finished) await reader.return?.().catch(() => undefined);
  }
}

/** The body's bytes, one read at a time; stopping early cancels a web stream (closing its connection). */
export function bytesOf(body: ByteBody): AsyncIterable<Uint8Array> {
  return "getReader" in body ? webStreamBytes(body) : body;
}

async function* webStreamBytes(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) reader.cancel().catch(() => undefined);
  }
}
