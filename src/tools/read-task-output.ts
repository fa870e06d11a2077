import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { BackgroundTaskInfo } from "./background-tasks.js";
import { HeadTailBuffer } from "./head-tail-buffer.js";

/** Bytes read from the log at a time, so a huge unread stretch never sits in memory whole. */
const CHUNK_BYTES = 1 << 20;
/** An unfinished last line shorter than this waits for its end while the task runs. */
const MAX_HELD_LINE_BYTES = 64 * 1024;

/** What one bash_output read found. */
export interface TaskOutputRead {
  /** The new output (only the lines `filter` matches), bounded: head and tail kept. */
  text: string;
  /** Bytes of the log this read covered (from, to). */
  from: number;
  to: number;
  /** Lines the filter left out. */
  dropped: number;
}

/**
 * Reads what `info`'s log holds past what was read before (`info.readBytes`), and moves that mark.
 * While the task runs, an unfinished last line is left for the next read (so a filter sees whole
 * lines); with `filter`, only matching lines are kept, the others are passed over for good. At most
 * `maxChars` characters come back, the first and last halves of them (HeadTailBuffer, as `bash`).
 */
export function readTaskOutput(
  info: BackgroundTaskInfo,
  maxChars: number,
  filter: RegExp | undefined,
): TaskOutputRead {
  const fd = openSync(info.logPath, "r");
  try {
    const size = fstatSync(fd).size;
    info.outputBytes = Math.max(info.outputBytes, size);
    const from = info.readBytes;
    const to = info.ending === undefined ? lineEnd(fd, from, size) : size;
    const kept = new HeadTailBuffer(maxChars);
    const lines = new LineFilter(filter, (text) => kept.append(text));
    const decoder = new StringDecoder("utf8");
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(1, to - from)));
    for (let at = from; at < to; ) {
      const got = readSync(fd, buffer, 0, Math.min(buffer.length, to - at), at);
      if (got === 0) break;
      lines.push(decoder.write(buffer.subarray(0, got)));
      at += got;
    }
    lines.push(decoder.end());
    lines.end();
    info.readBytes = to;
    return { text: kept.toString(), from, to, dropped: lines.dropped };
  } finally {
    closeSync(fd);
  }
}

/** Where a read of a running task stops: after the last newline, unless the line held back is long. */
function lineEnd(fd: number, from: number, size: number): number {
  const start = Math.max(from, size - MAX_HELD_LINE_BYTES);
  if (start >= size) return size;
  const tail = Buffer.alloc(size - start);
  const got = readSync(fd, tail, 0, tail.length, start);
  const newline = tail.subarray(0, got).lastIndexOf(0x0a);
  if (newline >= 0) return start + newline + 1;
  return start === from ? from : size;
}

/** Passes text on whole, or only the lines `filter` matches. */
class LineFilter {
  #partial = "";
  dropped = 0;

  constructor(
    private readonly filter: RegExp | undefined,
    private readonly emit: (text: string) => void,
  ) {}

  push(text: string): void {
    if (this.filter === undefined) {
      this.emit(text);
      return;
    }
    const lines = (this.#partial + text).split("\n");
    this.#partial = lines.pop() ?? "";
    for (const line of lines) this.#line(line);
  }

  end(): void {
    if (this.filter !== undefined && this.#partial !== "") this.#line(this.#partial);
    this.#partial = "";
  }

  #line(line: string): void {
    if (this.filter?.test(line) === true) this.emit(`${line}\n`);
    else this.dropped += 1;
  }
}
