import { once } from "node:events";

/** Where an export writes: buffered, honouring back-pressure, so memory stays flat. */
export interface TextSink {
  write(text: string): Promise<void>;
  /** Flushes what is buffered (and ends the stream when the sink owns it). */
  close(): Promise<void>;
}

const FLUSH_CHARS = 256 * 1024;

/** A sink over a writable stream; `end` says whether close() ends the stream (not for stdout). */
export function streamSink(stream: NodeJS.WritableStream, end: boolean): TextSink {
  let buffer: string[] = [];
  let buffered = 0;
  // A write that fails (disk full, a closed pipe) must fail the export, not the process.
  let failure: Error | undefined;
  stream.on("error", (error: Error) => {
    failure ??= error;
  });
  const flush = async (): Promise<void> => {
    if (failure !== undefined) throw failure;
    if (buffered === 0) return;
    const chunk = buffer.join("");
    buffer = [];
    buffered = 0;
    if (!stream.write(chunk)) await once(stream, "drain");
  };
  return {
    async write(text) {
      buffer.push(text);
      buffered += text.length;
      if (buffered >= FLUSH_CHARS) await flush();
    },
    async close() {
      await flush();
      if (end) {
        stream.end();
        if (failure === undefined) await once(stream, "finish");
      }
      if (failure !== undefined) throw failure;
    },
  };
}

/** A sink that collects everything in memory (tests, small exports). */
export function memorySink(): TextSink & { text(): string } {
  const parts: string[] = [];
  return {
    async write(text) {
      parts.push(text);
    },
    async close() {},
    text: () => parts.join(""),
  };
}
