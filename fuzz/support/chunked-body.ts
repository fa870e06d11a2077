/**
 * The input as a response body delivered in pieces whose sizes follow from the input itself (the
 * same input is always cut the same way), down to single bytes: readers must not care where a
 * network read ends, even inside a CRLF or a multi-byte character.
 */
export function chunkedBody(input: Uint8Array, salt = 0): ReadableStream<Uint8Array> {
  const pieces = cutPieces(input, salt);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces.shift();
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
}

export function cutPieces(input: Uint8Array, salt = 0): Uint8Array[] {
  let state = (input.length * 2654435761 + salt * 40503 + (input[0] ?? 7) * 97) >>> 0 || 1;
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < input.length; ) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const size = state % 4 === 0 ? 1 : 1 + (state % 97);
    pieces.push(input.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** Collects an async iterable into a list. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
