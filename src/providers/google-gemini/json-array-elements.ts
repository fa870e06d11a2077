import { type ByteBody, bytesOf } from "../shared/index.js";

/**
 * The top-level elements of a JSON array as their text, yielded as soon as each one is complete:
 * how `streamGenerateContent` without `alt=sse` streams (`[{...}\n,\r\n{...}]`). A body that is a
 * single object (a plain `generateContent` answer) yields that object. An element cut off by the
 * end of the body is dropped: the caller sees a stream that never finished.
 */
export async function* jsonArrayElements(body: ByteBody): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  const scanner = new JsonElementScanner();
  // Leaving the loop early (the consumer stopped) cancels the body, which closes the connection.
  for await (const chunk of bytesOf(body)) yield* scanner.push(decoder.decode(chunk, { stream: true }));
  yield* scanner.push(decoder.decode());
}

/** Tracks nesting and strings across pushes; only objects and arrays count as elements. */
class JsonElementScanner {
  private buffer = "";
  private position = 0;
  private depth = 0;
  /** 1 inside a root array (its elements sit at depth 1), 0 for a root object. */
  private base: number | undefined;
  private start = -1;
  private inString = false;
  private escaped = false;

  push(text: string): string[] {
    this.buffer += text;
    const elements: string[] = [];
    for (; this.position < this.buffer.length; this.position++) {
      const element = this.step(this.buffer[this.position] ?? "");
      if (element !== undefined) elements.push(element);
    }
    this.compact();
    return elements;
  }

  private step(char: string): string | undefined {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (char === "\\") this.escaped = true;
      else if (char === '"') this.inString = false;
      return undefined;
    }
    if (char === '"') {
      this.inString = true;
      return undefined;
    }
    if (char !== "{" && char !== "[" && char !== "}" && char !== "]") return undefined;
    if (this.base === undefined) {
      this.base = char === "[" ? 1 : 0;
      if (char === "[") {
        this.depth = 1;
        return undefined;
      }
    }
    if (char === "{" || char === "[") {
      if (this.depth === this.base) this.start = this.position;
      this.depth++;
      return undefined;
    }
    this.depth--;
    if (this.depth !== this.base || this.start === -1) return undefined;
    const element = this.buffer.slice(this.start, this.position + 1);
    this.start = -1;
    return element;
  }

  /** Drops text no open element needs, so a long stream does not accumulate. */
  private compact(): void {
    const keepFrom = this.start === -1 ? this.position : this.start;
    this.buffer = this.buffer.slice(keepFrom);
    this.position -= keepFrom;
    if (this.start !== -1) this.start = 0;
  }
}
