import { charWidth, STYLE_SEQUENCE, textWidth } from "./text-width.js";

/**
 * Word-wraps text that arrives in pieces (a streamed answer) to the terminal's width, so a narrow
 * terminal breaks lines between words instead of in the middle of one. A word is held back until
 * the whitespace after it shows whether it still fits; wide (CJK) characters break anywhere. A word
 * longer than a line (a path, an address) is never cut: it is left whole for the terminal to wrap,
 * so it copies back as it was. Style sequences take no room. With no width
 * (output is not a terminal) text passes through untouched.
 */
export class WordWrapper {
  readonly #width: () => number | undefined;
  readonly #indent: string;
  #column = 0;
  #word = "";
  #wordWidth = 0;
  #space = "";
  #lastWritten = "\n";

  /** `indent` starts every line the wrapper breaks (a hanging indent); the text's own lines keep theirs. */
  constructor(width: () => number | undefined, indent = "") {
    this.#width = width;
    this.#indent = indent;
  }

  /** Takes the next piece of text and returns what can be written now. */
  push(text: string): string {
    if (this.#width() === undefined && this.#word === "" && this.#space === "")
      return this.#passThrough(text);
    let out = "";
    for (let at = 0; at < text.length; ) {
      STYLE_SEQUENCE.lastIndex = at;
      const style = STYLE_SEQUENCE.exec(text)?.[0];
      const char = style ?? String.fromCodePoint(text.codePointAt(at) ?? 0);
      at += char.length;
      out += style === undefined ? this.#take(char) : this.#hold(style, 0);
    }
    return out;
  }

  /** Returns whatever is held back (the last word); trailing spaces are dropped. */
  flush(): string {
    const out = this.#writeWord();
    this.#space = "";
    return out;
  }

  /** True when nothing is held back and the last character written ended a line. */
  get atLineStart(): boolean {
    return this.#word === "" && this.#space === "" && this.#lastWritten.endsWith("\n");
  }

  #take(char: string): string {
    if (char === "\n") {
      const out = `${this.#writeWord()}\n`;
      this.#space = "";
      this.#column = 0;
      this.#lastWritten = "\n";
      return out;
    }
    if (char === " " || char === "\t") {
      const out = this.#writeWord();
      this.#space += char;
      return out;
    }
    const width = charWidth(char);
    if (width === 2) return this.#writeWord() + this.#hold(char, 2) + this.#writeWord();
    return this.#hold(char, width);
  }

  #hold(text: string, width: number): string {
    this.#word += text;
    this.#wordWidth += width;
    return "";
  }

  #writeWord(): string {
    if (this.#word === "") return "";
    const width = this.#width();
    let out = this.#space;
    let column = this.#column + spaceWidth(this.#space, this.#column);
    // A word too long for any line stays where it is: breaking before it would gain nothing.
    const fitsALine = width !== undefined && this.#wordWidth <= width - textWidth(this.#indent);
    if (width !== undefined && this.#column > 0 && column + this.#wordWidth > width && fitsALine) {
      out = `\n${this.#indent}`;
      column = textWidth(this.#indent);
    }
    out += this.#word;
    column += this.#wordWidth;
    // Exactly full is fine (the terminal waits to wrap); only a long word runs past the edge.
    this.#column = width === undefined || column <= width ? column : column % width;
    this.#word = "";
    this.#wordWidth = 0;
    this.#space = "";
    this.#lastWritten = out;
    return out;
  }

  #passThrough(text: string): string {
    if (text !== "") this.#lastWritten = text;
    const lastLine = text.slice(text.lastIndexOf("\n") + 1);
    this.#column = text.includes("\n") ? textWidth(lastLine) : this.#column + textWidth(lastLine);
    return text;
  }
}

/** Word-wraps a whole text at once; each line the wrapper breaks starts with `indent`. */
export function wrapText(text: string, width: number | undefined, indent = ""): string {
  const wrapper = new WordWrapper(() => width, indent);
  return wrapper.push(text) + wrapper.flush();
}

/** Columns a run of spaces and tabs takes when it starts at `column` (tab stops every 8). */
function spaceWidth(space: string, column: number): number {
  let end = column;
  for (const char of space) end = char === "\t" ? end + 8 - (end % 8) : end + 1;
  return end - column;
}

/**
 * Word-wraps each line of a message for a terminal `width` columns wide. A line laid out as a table
 * row ("  /compact  summarise …", "  id:   …") continues under its second column when that leaves
 * room; any other indented line continues two columns in from its indentation, prose at the margin.
 */
export function wrapLines(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text
    .split("\n")
    .map((line) => wrapText(line, width, " ".repeat(hangingIndent(line, width))))
    .join("\n");
}

function hangingIndent(line: string, width: number): number {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with ESC.
  const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
  const lead = /^\s*/.exec(plain)?.[0].length ?? 0;
  const column = /^\s*\S.*?\S {2,}(?=\S)/.exec(plain)?.[0].length;
  if (column !== undefined && column <= width / 2) return column;
  // Prose at the margin wraps to the margin; an indented line keeps its lines together by hanging in.
  return lead === 0 ? 0 : Math.min(lead + 2, Math.floor(width / 2));
}
