import { type FileHandle, open } from "node:fs/promises";

/** Bytes read at a time: large enough that a line rarely spans two reads, small enough to stay flat. */
export const SCAN_CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * One read of whole lines: their bytes as written and, when asked for, the same bytes with ASCII
 * letters in lower case (same length, same offsets), so a raw case-insensitive search can run on
 * it with `Buffer.indexOf` before any JSON is parsed.
 */
export interface LineChunk {
  /** The file offset of `bytes[0]`. */
  offset: number;
  bytes: Buffer;
  lower: Buffer | undefined;
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
 * however large the file: only one read (and the part line carried into the next) is held.
 */
export async function scanLines(
  path: string,
  options: { from?: number; to?: number; lower: boolean; partialLast?: boolean; signal?: AbortSignal },
  visit: (chunk: LineChunk) => void,
): Promise<{ size: number }> {
  const file = await open(path, "r");
  try {
    const { size: fileSize } = await file.stat();
    const size = Math.min(fileSize, options.to ?? fileSize);
    let position = options.from ?? 0;
    let carry: Buffer = Buffer.alloc(0);
    while (position < size) {
      options.signal?.throwIfAborted();
      const length = Math.min(SCAN_CHUNK_BYTES, size - position);
      const read = Buffer.allocUnsafe(carry.length + length);
      carry.copy(read, 0);
      const { bytesRead } = await file.read(read, carry.length, length, position);
      if (bytesRead === 0) break;
      const bytes = read.subarray(0, carry.length + bytesRead);
      const offset = position - carry.length;
      position += bytesRead;
      const last = bytes.lastIndexOf(NEWLINE);
      if (last === -1) {
        carry = bytes;
        continue;
      }
      visit(chunkOf(bytes.subarray(0, last), offset, options.lower));
      carry = Buffer.from(bytes.subarray(last + 1));
    }
    if (carry.length > 0 && options.partialLast === true)
      visit(chunkOf(carry, position - carry.length, options.lower));
    return { size };
  } finally {
    await file.close();
  }
}

function chunkOf(bytes: Buffer, offset: number, lower: boolean): LineChunk {
  const starts = [0];
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) starts.push(at + 1);
  return { offset, bytes, lower: lower ? asciiLowerCase(bytes) : undefined, starts, end: bytes.length };
}

/** A copy of `bytes` with A-Z turned into a-z and every other byte unchanged. */
export function asciiLowerCase(bytes: Buffer): Buffer {
  const lower = Buffer.allocUnsafe(bytes.length);
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    lower[index] = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
  }
  return lower;
}

/** Reads single lines of one file by offset and length, keeping the file open between reads. */
export class LineReader {
  readonly #path: string;
  #file: Promise<FileHandle> | undefined;

  constructor(path: string) {
    this.#path = path;
  }

  /** The text of the line of `length` bytes at `offset`. */
  async line(offset: number, length: number): Promise<string> {
    this.#file ??= open(this.#path, "r");
    const file = await this.#file;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, offset);
    return buffer.toString("utf8", 0, bytesRead);
  }

  async close(): Promise<void> {
    const file = this.#file;
    this.#file = undefined;
    await (await file?.catch(() => undefined))?.close();
  }
}
