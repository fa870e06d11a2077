import { PassThrough } from "node:stream";
import { stripVTControlCharacters } from "node:util";

/**
 * A terminal simulated with streams: type into it, read what it shows (escape codes removed).
 * `columns` makes stdout a terminal of that width (answers and notices are then word-wrapped).
 */
export class FakeTerminal {
  readonly stdin = Object.assign(new PassThrough(), { isTTY: true });
  readonly stdout: PassThrough & { isTTY: boolean; columns?: number };
  readonly stderr = Object.assign(new PassThrough(), { isTTY: false });
  #screen = "";

  constructor(options: { columns?: number } = {}) {
    this.stdout = Object.assign(
      new PassThrough(),
      options.columns === undefined ? { isTTY: false } : { isTTY: true, columns: options.columns },
    );
    const collect = (chunk: Buffer): void => {
      this.#screen += chunk.toString("utf8");
    };
    this.stdout.on("data", collect);
    this.stderr.on("data", collect);
  }

  get screen(): string {
    return stripVTControlCharacters(this.#screen);
  }

  /** Waits for `text` and then for the prompt that follows it (the request has finished). */
  async waitForAnswer(text: string, from = 0): Promise<number> {
    return this.waitFor("> ", await this.waitFor(text, from));
  }

  type(text: string): void {
    this.stdin.write(text);
  }

  /** Waits until the screen shows `text` (after `from` characters), returning where it ends. */
  async waitFor(text: string, from = 0): Promise<number> {
    for (let waited = 0; waited < 20_000; waited += 10) {
      const at = this.screen.indexOf(text, from);
      if (at >= 0) return at + text.length;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${this.screen}`);
  }
}
