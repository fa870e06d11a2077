import { Writable } from "node:stream";

type Terminal = NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };

/**
 * The output node:readline draws the prompt and echoes keys on, in front of the real stdout. While
 * a request runs it is muted: what the user types ahead is still read (and Enter still queues it)
 * but not echoed into the middle of the streaming answer; the next prompt shows it. While muted it
 * reports no width, so readline keeps no wrapped-row count it would later move the cursor up by.
 */
export class MutableOutput extends Writable {
  readonly #target: Terminal;
  muted = false;

  constructor(target: Terminal) {
    super({ decodeStrings: false });
    this.#target = target;
    // readline redraws on resize; pass the terminal's resizes on.
    target.on("resize", () => this.emit("resize"));
  }

  get isTTY(): boolean {
    return this.#target.isTTY === true;
  }

  get columns(): number | undefined {
    return this.muted ? undefined : this.#target.columns;
  }

  get rows(): number | undefined {
    return this.#target.rows;
  }

  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Written through at once (not after a tick) so it stays in order with direct writes to stdout.
    if (!this.muted) {
      if (typeof chunk === "string") this.#target.write(chunk, encoding);
      else this.#target.write(chunk as Uint8Array);
    }
    callback();
  }
}
