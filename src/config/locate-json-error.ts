import { quoteForMessage } from "./quote-for-message.js";

/** Where and why a text is not valid JSON. */
export interface JsonErrorLocation {
  /** 0-based character offset. */
  offset: number;
  /** 1-based line and column of the offset. */
  line: number;
  column: number;
  reason: string;
}

class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Finds the first syntax error in `text` with its line and column, or returns undefined when the
 * text is valid JSON. Node's own JSON.parse messages omit the position for some errors and vary
 * between versions, so config errors locate the problem themselves. Text nested deeper than
 * MAX_JSON_DEPTH is reported as an error even where JSON.parse accepts it.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  try {
    new JsonScanner(text).scanDocument();
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), reason: error.reason };
  }
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
}

const LITERALS = ["true", "false", "null"];
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/**
 * How deep the checker follows nested objects and arrays. It recurses, so without a limit a long
 * run of "[" overflowed the stack and a RangeError escaped the config reader (a fuzz find). No
 * config nests anywhere near this deep; a text that does is reported as an error at that point.
 */
export const MAX_JSON_DEPTH = 512;

/** A recursive-descent checker of the JSON grammar (RFC 8259); it validates, it does not build values. */
class JsonScanner {
  private at = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  scanDocument(): void {
    this.skipWhitespace();
    this.scanValue();
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail("unexpected content after the JSON value");
  }

  private scanValue(): void {
    const char = this.text[this.at];
    if (char === "{" || char === "[") {
      if (this.depth >= MAX_JSON_DEPTH) this.fail(`nested more than ${MAX_JSON_DEPTH} levels deep`);
      this.depth += 1;
      if (char === "{") this.scanObject();
      else this.scanArray();
      this.depth -= 1;
    } else if (char === '"') this.scanString();
    else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) this.scanNumber();
    else this.scanLiteral(char);
  }

  private scanLiteral(char: string | undefined): void {
    const literal = LITERALS.find((word) => this.text.startsWith(word, this.at));
    if (literal === undefined) {
      this.fail(
        char === undefined ? "unexpected end of input; expected a value" : this.unexpected("a value"),
      );
    }
    this.at += literal.length;
  }

  private scanObject(): void {
    this.at += 1;
    this.skipWhitespace();
    if (this.text[this.at] === "}") {
      this.at += 1;
      return;
    }
    for (;;) {
      if (this.text[this.at] !== '"') this.fail(this.unexpected("a double-quoted property name"));
      this.scanString();
      this.skipWhitespace();
      if (this.text[this.at] !== ":") this.fail(this.unexpected("':' after the property name"));
      this.at += 1;
      this.skipWhitespace();
      this.scanValue();
      this.skipWhitespace();
      if (this.closes("}", "a property")) return;
    }
  }

  private scanArray(): void {
    this.at += 1;
    this.skipWhitespace();
    if (this.text[this.at] === "]") {
      this.at += 1;
      return;
    }
    for (;;) {
      this.scanValue();
      this.skipWhitespace();
      if (this.closes("]", "an element")) return;
    }
  }

  /** After a member: true at the closing bracket, false after a comma (a trailing comma is an error). */
  private closes(bracket: "}" | "]", member: string): boolean {
    const char = this.text[this.at];
    if (char === bracket) {
      this.at += 1;
      return true;
    }
    if (char !== ",") this.fail(this.unexpected(`',' or '${bracket}' after ${member}`));
    const comma = this.at;
    this.at += 1;
    this.skipWhitespace();
    if (this.text[this.at] === bracket) this.fail("trailing comma", comma);
    return false;
  }

  private scanString(): void {
    const start = this.at;
    this.at += 1;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined || char === "\n") this.fail("unterminated string", start);
      if (char === '"') {
        this.at += 1;
        return;
      }
      if (char === "\\") {
        ESCAPE.lastIndex = this.at;
        if (!ESCAPE.test(this.text)) this.fail("invalid escape sequence in string");
        this.at = ESCAPE.lastIndex;
        continue;
      }
      if (char < " ") this.fail("control character in string; escape it");
      this.at += 1;
    }
  }

  private scanNumber(): void {
    NUMBER.lastIndex = this.at;
    if (!NUMBER.test(this.text)) this.fail("invalid number");
    this.at = NUMBER.lastIndex;
  }

  private skipWhitespace(): void {
    while (/[ \t\r\n]/.test(this.text[this.at] ?? "")) this.at += 1;
  }

  private unexpected(expected: string): string {
    const char = this.text[this.at];
    if (char === undefined) return `unexpected end of input; expected ${expected}`;
    if (char === "/" && /[/*]/.test(this.text[this.at + 1] ?? "")) return "comments are not allowed in JSON";
    return `unexpected ${quoteForMessage(char)}; expected ${expected}`;
  }

  private fail(reason: string, offset = this.at): never {
    throw new JsonSyntaxError(offset, reason);
  }
}
