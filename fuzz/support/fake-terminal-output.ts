import { Writable } from "node:stream";

/** A terminal-like stream that keeps what was written: a TTY of `columns` columns. */
export class FakeTerminalOutput extends Writable {
  readonly isTTY = true;
  text = "";

  constructor(readonly columns: number) {
    super();
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    // Synchronously, so the check sees everything written before the run returns.
    this.text += String(chunk);
    const done = rest.find((item) => typeof item === "function") as (() => void) | undefined;
    done?.();
    return true;
  }
}
