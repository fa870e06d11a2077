import type { FileHandle } from "node:fs/promises";

/** One line of a file, read from the end toward the start. */
export interface BackwardLine {
  /** The line without its "\n". */
  text: string;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** False only for bytes after the file's last "\n" (a line whose write was cut off). */
  terminated: boolean;
}

/** Default read size: large enough that a typical entry fits in one read, small enough to stay cheap. */
export const BACKWARD_CHUNK_BYTES = 64 * 1024;

/** Reads exactly `buffer.length` bytes at `position`. */
export async function readExactly(file: FileHandle, buffer: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await file.read(buffer, done, buffer.length - done, position + done);
    if (bytesRead === 0) throw new Error(`file ended at byte ${position + done} while reading`);
    done += bytesRead;
  }
}

function joinPieces(pieces: Buffer[]): string {
  // Pieces were collected from the end of the line backward.
  return Buffer.concat(pieces.reverse()).toString("utf8");
}

/**
 * Yields the lines of `file` between byte `start` and byte `end`, last line first, reading
 * fixed-size chunks backward. Only the lines actually consumed are read, so a caller that stops
 * early pays for the tail it looked at, not the whole file. Splitting on the byte 0x0a is safe in
 * UTF-8: it never occurs inside a multi-byte character.
 */
export async function* readLinesBackward(
  file: FileHandle,
  start: number,
  end: number,
  chunkBytes: number = BACKWARD_CHUNK_BYTES,
): AsyncGenerator<BackwardLine> {
  let position = end;
  let pieces: Buffer[] = [];
  let terminated = false;
  while (position > start) {
    const size = Math.min(chunkBytes, position - start);
    const chunk = Buffer.allocUnsafe(size);
    position -= size;
    await readExactly(file, chunk, position);
    let lineEnd = size;
    let newline = chunk.lastIndexOf(0x0a, lineEnd - 1);
    while (newline !== -1) {
      pieces.push(chunk.subarray(newline + 1, lineEnd));
      const text = joinPieces(pieces);
      // The empty "line" after a final "\n" is not a line.
      if (terminated || text !== "") yield { text, offset: position + newline + 1, terminated };
      pieces = [];
      terminated = true;
      lineEnd = newline;
      newline = lineEnd === 0 ? -1 : chunk.lastIndexOf(0x0a, lineEnd - 1);
    }
    pieces.push(chunk.subarray(0, lineEnd));
  }
  const text = joinPieces(pieces);
  if (terminated || text !== "") yield { text, offset: start, terminated };
}
