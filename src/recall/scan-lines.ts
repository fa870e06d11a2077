import { type FileHandle, open } from "node:fs/promises";

/** Bytes read at a time: large enough that a line rarely spans two reads, small enough to stay flat. */
export const SCAN_CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** One read of whole lines: their bytes as written, and where each line starts. */
export interface LineChunk {
  /** The file offset of `bytes[0]`. */
  offset: number;
  bytes: Buffer;
  /** Start of each line in `bytes`; line i ends at starts[i + 1] - 1 (its "\n"), the last at `end`. */
  starts: readonly number[];
  /** Where the last line ends (exclusive, its "\n" not included). */
  end: number;
}

/** Where line `index` of `chunk` ends, "\n" and a "\r" before it excluded. */
export function lineEnd(chunk: LineChunk, index: number): number {
  const next = chunk.starts[index + 1];
  let end = next === undefined ? chunk.end : next - 1;
  const start = chunk.starts[index] as number;
  if (end > start && chunk.bytes[end - 1] === CARRIAGE_RETURN) end--;
  return end;
}

/**
 * Reads the complete lines of the file at `path` from byte `from` (a line's start) to the end (or to
 * byte `to`, a line's start), a few megabytes at a time, handing each read's lines to `visit` in order. A last line without "\n" (a write still
 * landing, or cut off by a crash) is handed over only if `partialLast` says so. Memory stays flat
 * however large the file: only one read (and the part line carried into the next) is held. A
 * chunk's bytes are reused by the next read: `visit` must be done with them when it returns.
 */
export async function scanLines(
  path: string,
  options: { from?: number; to?: number; partialLast?: boolean; signal?: AbortSignal },
  visit: (chunk: LineChunk) => void,
): Promise<{ size: number }> {
  const file = await open(path, "r");
  try {
    const { size: fileSize } = await file.stat();
    const size = Math.min(fileSize, options.to ?? fileSize);
    let position = options.from ?? 0;
    // One buffer for the whole scan (the garbage of a fresh one per read costs as much as the read):
    // each read lands after the part line carried over from the one before, moved to its front.
    let buffer: Buffer = Buffer.allocUnsafe(2 * SCAN_CHUNK_BYTES);
    let carry = 0;
    while (position < size) {
      options.signal?.throwIfAborted();
      const length = Math.min(SCAN_CHUNK_BYTES, size - position);
      if (buffer.length < carry + length) buffer = grown(buffer, carry, carry + length);
      const { bytesRead } = await file.read(buffer, carry, length, position);
      if (bytesRead === 0) break;
      const bytes = buffer.subarray(0, carry + bytesRead);
      const offset = position - carry;
      position += bytesRead;
      const last = bytes.lastIndexOf(NEWLINE);
      if (last === -1) {
        carry = bytes.length;
        continue;
      }
      visit(chunkOf(bytes.subarray(0, last), offset));
      carry = bytes.length - last - 1;
      bytes.copy(buffer, 0, last + 1);
    }
    if (carry > 0 && options.partialLast === true)
      visit(chunkOf(buffer.subarray(0, carry), position - carry));
    return { size };
  } finally {
    await file.close();
  }
}

/** A larger buffer holding the first `keep` bytes of `buffer` (a line longer than a read). */
function grown(buffer: Buffer, keep: number, needed: number): Buffer {
  const larger = Buffer.allocUnsafe(Math.max(needed, 2 * buffer.length));
  buffer.copy(larger, 0, 0, keep);
  return larger;
}

function chunkOf(bytes: Buffer, offset: number): LineChunk {
  const starts = [0];
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) starts.push(at + 1);
  return { offset, bytes, starts, end: bytes.length };
}

/** Bytes a {@link LineReader} reads at once, so lines near each other cost one read. */
export const READER_WINDOW_BYTES = 1024 * 1024;

/**
 * Reads single lines of one file by offset and length, keeping the file open between reads. Each
 * read takes the window of bytes ending at the line asked for, so lines asked for newest first (as
 * a search verifies its candidates) mostly come from the window already read.
 */
export class LineReader {
  readonly #path: string;
  #file: Promise<FileHandle> | undefined;
  #window: Buffer = Buffer.alloc(0);
  #windowStart = 0;

  constructor(path: string) {
    this.#path = path;
  }

  /** The text of the line of `length` bytes at `offset`. */
  async line(offset: number, length: number): Promise<string> {
    const end = offset + length;
    if (offset < this.#windowStart || end > this.#windowStart + this.#window.length) {
      this.#file ??= open(this.#path, "r");
      const file = await this.#file;
      const start = Math.max(0, end - Math.max(READER_WINDOW_BYTES, length));
      const buffer = Buffer.allocUnsafe(end - start);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, start);
      this.#window = buffer.subarray(0, bytesRead);
      this.#windowStart = start;
    }
    const at = offset - this.#windowStart;
    return this.#window.toString("utf8", at, Math.min(at + length, this.#window.length));
  }

  async close(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    await (await file?.catch(() => undefined))?.close();
  }
}
