import type { LineChunk } from "./scan-lines.js";

/**
 * `bytes` with ASCII letters in lower case, written into `into` (grown when too small) and
 * returned: every other byte is unchanged, so offsets match and an ASCII needle in lower case is
 * found where the bytes hold it in any case. Four bytes at a time (no carries cross bytes: each
 * is masked to 7 bits first), so 100 MB take well under a second; nothing is allocated per call.
 */
export function lowerCaseInto(into: { buffer: Buffer }, bytes: Buffer): Buffer {
  if (into.buffer.length < bytes.length)
    into.buffer = Buffer.allocUnsafe(Math.max(bytes.length, 2 * into.buffer.length));
  const target = into.buffer;
  const aligned = bytes.byteOffset % 4 === 0 && target.byteOffset % 4 === 0;
  const words = aligned ? bytes.length >> 2 : 0;
  if (words > 0) {
    const source = new Uint32Array(bytes.buffer, bytes.byteOffset, words);
    const output = new Uint32Array(target.buffer, target.byteOffset, words);
    for (let index = 0; index < words; index++) {
      const word = source[index] as number;
      const low = word & 0x7f7f7f7f;
      // Per byte: high bit set when the byte is "A" or above, and when it is above "Z".
      const upper = (low + 0x3f3f3f3f) & ~(low + 0x25252525) & ~word & 0x80808080;
      output[index] = word | (upper >>> 2);
    }
  }
  for (let index = words * 4; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    target[index] = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
  }
  return target.subarray(0, bytes.length);
}

/**
 * Per line of `chunk`: 0 when its raw bytes lack `needle` (lower-case ASCII) in any case, 2 when
 * they hold it where a word of the text may start (when `wordStarts` is asked), else 1. `lower` is
 * the chunk's bytes lower-cased (see lowerCaseInto). One `Buffer.indexOf` pass over the chunk,
 * skipping to the next line once a line's answer is settled.
 */
export function findNeedle(chunk: LineChunk, lower: Buffer, needle: Buffer, wordStarts: boolean): Uint8Array {
  const { starts } = chunk;
  const found = new Uint8Array(starts.length);
  let line = 0;
  for (let at = lower.indexOf(needle); at !== -1 && at < chunk.end; ) {
    while (line + 1 < starts.length && (starts[line + 1] as number) <= at) line++;
    const start = wordStarts && mayStartWord(chunk.bytes, at, starts[line] as number);
    if (start) found[line] = 2;
    else if (found[line] === 0) found[line] = 1;
    const settled = !wordStarts || start;
    const next = starts[line + 1];
    if (settled && next === undefined) break;
    at = lower.indexOf(needle, settled ? (next as number) : at + 1);
  }
  return found;
}

/**
 * Whether the text may have a word starting where the raw line has byte `at`: the byte before is no
 * ASCII letter, digit or "_" (a space, punctuation, or part of a character outside ASCII), or it
 * may end an escape (`\n`, `\u00e9`). Errs towards yes, so a bound built on it is never too low.
 */
function mayStartWord(bytes: Buffer, at: number, lineStart: number): boolean {
  if (at <= lineStart) return true;
  const before = bytes[at - 1] as number;
  const wordByte =
    (before >= 0x30 && before <= 0x39) ||
    (before >= 0x41 && before <= 0x5a) ||
    (before >= 0x61 && before <= 0x7a) ||
    before === 0x5f;
  if (!wordByte) return true;
  // \n \t \r \b \f
  if (bytes[at - 2] === 0x5c && [0x6e, 0x74, 0x72, 0x62, 0x66].includes(before)) return true;
  return bytes[at - 6] === 0x5c && bytes[at - 5] === 0x75;
}
