import MarkdownItClass, { type MarkdownIt, type Token } from "markdown-it";
import { visible } from "../../../runtime/format-text.js";
import { textWidth } from "./text-width.js";
import { wrapText } from "./word-wrapper.js";

/** Colours code: returns `code` with style sequences added, or undefined for a language it does not know. */
export type Highlight = (code: string, language: string) => string | undefined;

/** One output line; a raw one (code, a table too wide) is written as it is: never indented or wrapped. */
interface Line {
  text: string;
  raw: boolean;
}

const SGR = {
  bold: ["\u001b[1m", "\u001b[22m"],
  italic: ["\u001b[3m", "\u001b[23m"],
  underline: ["\u001b[4m", "\u001b[24m"],
  strike: ["\u001b[9m", "\u001b[29m"],
  dim: ["\u001b[2m", "\u001b[22m"],
  cyan: ["\u001b[36m", "\u001b[39m"],
} as const;

const paint = (kind: keyof typeof SGR, text: string): string => `${SGR[kind][0]}${text}${SGR[kind][1]}`;

/** What one render hands the next: markdown-it's reference definitions, by normalised label. */
export type RenderEnv = { references?: Record<string, { href: string; title: string }> };

/**
 * Markdown rendered for a colour terminal, parsed by markdown-it: headings, emphasis, lists,
 * quotes, links, tables, inline code and fenced code (coloured by `highlight` when given). Prose is
 * word-wrapped to `width`; code blocks are written line for line as the answer has them, never
 * indented or wrapped (the terminal wraps a long line, so a copied block is byte-identical), and a
 * table too wide for the terminal is shown as its Markdown source. Raw HTML is shown as text.
 */
export class TerminalMarkdown {
  readonly #parser: MarkdownIt = new MarkdownItClass({ html: false, linkify: false, typographer: false });
  readonly #width: () => number | undefined;
  highlight: Highlight | undefined;

  constructor(width: () => number | undefined, highlight?: Highlight) {
    this.#width = width;
    this.highlight = highlight;
  }

  /** The top-level blocks of `source`, each with its first and end line (for streaming). */
  blocks(source: string): Array<{ type: string; start: number; end: number; closed: boolean }> {
    const lines = source.split("\n");
    return this.#parser
      .parse(source, {})
      .filter((token) => token.level === 0 && token.map !== null && token.nesting !== -1)
      .map((token) => {
        const [start, end] = token.map ?? [0, 0];
        const last = lines[end - 1]?.trim() ?? "";
        const closed = token.type !== "fence" || (end - 1 > start && last.startsWith(token.markup));
        return { type: token.type, start, end, closed };
      });
  }

  /**
   * Renders complete Markdown; every line ends in "\n". `env` carries reference definitions from
   * one call to the next: those already in it resolve links in `source`, and the definitions
   * `source` makes are added to it (the first definition of a label wins, as in one document).
   */
  render(source: string, env: RenderEnv = {}): string {
    const tokens = this.#parser.parse(source, env);
    const lines = this.#blocks(tokens, 0, tokens.length, this.#width(), source.split("\n"));
    return lines.map((line) => `${line.text}\n`).join("");
  }

  #blocks(tokens: Token[], from: number, to: number, width: number | undefined, source: string[]): Line[] {
    const lines: Line[] = [];
    let previousHidden = false;
    for (let index = from; index < to; ) {
      const token = tokens[index];
      if (token === undefined) break;
      const close = closing(tokens, index);
      const rendered = this.#block(tokens, index, close, width, source);
      // Blocks are set apart by a blank line, except around the paragraphs of a tight list.
      if (lines.length > 0 && rendered.length > 0 && !(previousHidden || token.hidden))
        lines.push({ text: "", raw: false });
      lines.push(...rendered);
      previousHidden = token.hidden;
      index = close + 1;
    }
    return lines;
  }

  #block(tokens: Token[], open: number, close: number, width: number | undefined, source: string[]): Line[] {
    const token = tokens[open];
    if (token === undefined) return [];
    switch (token.type) {
      case "paragraph_open":
        return this.#prose(this.#inline(tokens[open + 1]), width);
      case "heading_open": {
        const text = this.#inline(tokens[open + 1]);
        return this.#prose(
          token.tag === "h1" ? paint("underline", paint("bold", text)) : paint("bold", text),
          width,
        );
      }
      case "bullet_list_open":
      case "ordered_list_open":
        return this.#list(tokens, open, close, width, source);
      case "blockquote_open":
        return indent(
          this.#blocks(tokens, open + 1, close, width === undefined ? undefined : width - 2, source),
          paint("dim", "│ "),
        );
      case "fence":
      case "code_block":
        return this.#code(token);
      case "hr":
        return [{ text: paint("dim", "─".repeat(Math.min(width ?? 40, 40))), raw: false }];
      case "table_open":
        return this.#table(tokens, open, close, width, source);
      default: {
        // html_block and anything else: its source, as it was.
        const [start, end] = token.map ?? [0, 0];
        return source.slice(start, end).map((text) => ({ text, raw: true }));
      }
    }
  }

  #prose(text: string, width: number | undefined): Line[] {
    return text
      .split("\n")
      .flatMap((line) => wrapText(line, width).split("\n"))
      .map((line) => ({ text: line, raw: false }));
  }

  #list(tokens: Token[], open: number, close: number, width: number | undefined, source: string[]): Line[] {
    const ordered = tokens[open]?.type === "ordered_list_open";
    let number = Number(tokens[open]?.attrGet("start") ?? 1);
    const lines: Line[] = [];
    for (let index = open + 1; index < close; ) {
      const itemClose = closing(tokens, index);
      const marker = ordered ? `${number++}. ` : "• ";
      const inner = this.#blocks(
        tokens,
        index + 1,
        itemClose,
        width === undefined ? undefined : width - marker.length,
        source,
      );
      const loose = tokens[index + 1]?.hidden === false;
      if (lines.length > 0 && loose) lines.push({ text: "", raw: false });
      lines.push(...indent(inner, ordered ? marker : paint("dim", marker), " ".repeat(marker.length)));
      index = itemClose + 1;
    }
    return lines;
  }

  #code(token: Token): Line[] {
    const code = token.content.replace(/\n$/, "");
    const language = visible(token.info.trim().split(/\s+/)[0] ?? "");
    const coloured = language === "" ? undefined : this.highlight?.(code, language);
    const fence = token.type === "fence" ? token.markup : "";
    const body = (coloured ?? code).split("\n").map((text) => ({ text, raw: true }));
    if (fence === "") return body;
    return [
      { text: paint("dim", `${fence}${language}`), raw: true },
      ...body,
      { text: paint("dim", fence), raw: true },
    ];
  }

  #table(tokens: Token[], open: number, close: number, width: number | undefined, source: string[]): Line[] {
    const rows: string[][] = [];
    const align: string[] = [];
    for (let index = open; index < close; index++) {
      const token = tokens[index];
      if (token?.type === "tr_open") rows.push([]);
      if (token?.type === "th_open" || token?.type === "td_open") {
        rows.at(-1)?.push(this.#inline(tokens[index + 1]));
        if (rows.length === 1) align.push(String(token.attrGet("style") ?? ""));
      }
    }
    const columns = align.map((_, column) => Math.max(...rows.map((row) => textWidth(row[column] ?? ""))));
    const total = columns.reduce((sum, column) => sum + column, 0) + 3 * (columns.length - 1);
    if (width !== undefined && total > width) {
      const [start, end] = tokens[open]?.map ?? [0, 0];
      return source.slice(start, end).map((text) => ({ text, raw: true }));
    }
    const cell = (text: string, column: number): string => {
      const room = (columns[column] ?? 0) - textWidth(text);
      const style = align[column] ?? "";
      if (style.includes("right")) return `${" ".repeat(room)}${text}`;
      if (style.includes("center"))
        return `${" ".repeat(Math.floor(room / 2))}${text}${" ".repeat(Math.ceil(room / 2))}`;
      return `${text}${" ".repeat(room)}`;
    };
    const line = (row: string[]): string => row.map(cell).join(paint("dim", " │ ")).trimEnd();
    const [header = [], ...body] = rows;
    return [
      { text: line(header.map((text) => paint("bold", text))), raw: true },
      { text: paint("dim", columns.map((column) => "─".repeat(column)).join("─┼─")), raw: true },
      ...body.map((row) => ({ text: line(row), raw: true })),
    ];
  }

  #inline(token: Token | undefined): string {
    let out = "";
    let href: string | undefined;
    let linkText = "";
    for (const child of token?.children ?? []) {
      let piece = "";
      switch (child.type) {
        case "text":
        case "html_inline":
          // markdown-it decodes entities: `&#x1b;` arrives here as a real escape.
          piece = visible(child.content);
          break;
        case "code_inline":
          piece = paint("cyan", child.content);
          break;
        case "softbreak":
          piece = " ";
          break;
        case "hardbreak":
          piece = "\n";
          break;
        case "strong_open":
        case "strong_close":
          piece = SGR.bold[child.nesting === 1 ? 0 : 1];
          break;
        case "em_open":
        case "em_close":
          piece = SGR.italic[child.nesting === 1 ? 0 : 1];
          break;
        case "s_open":
        case "s_close":
          piece = SGR.strike[child.nesting === 1 ? 0 : 1];
          break;
        case "link_open":
          href = visible(String(child.attrGet("href") ?? ""));
          linkText = "";
          piece = SGR.underline[0];
          break;
        case "link_close":
          piece = `${SGR.underline[1]}${href === undefined || href === linkText || `mailto:${linkText}` === href ? "" : paint("dim", ` (${href})`)}`;
          href = undefined;
          break;
        case "image":
          piece = `[image: ${visible(child.content)}] ${paint("dim", `(${visible(String(child.attrGet("src") ?? ""))})`)}`;
          break;
        default:
          piece = visible(child.content);
      }
      if (href !== undefined && child.type !== "link_open") linkText += child.content;
      out += piece;
    }
    return out;
  }
}

/** The index of the token that closes the one at `open` (itself for a token that opens nothing). */
function closing(tokens: Token[], open: number): number {
  const token = tokens[open];
  if (token === undefined || token.nesting !== 1) return open;
  let depth = 0;
  for (let index = open; index < tokens.length; index++) {
    depth += tokens[index]?.nesting ?? 0;
    if (depth === 0) return index;
  }
  return tokens.length - 1;
}

/** Prefixes lines (a list marker on the first, `rest` after it); raw lines (code) stay at the margin. */
function indent(lines: Line[], first: string, rest = first): Line[] {
  return lines.map((line, index) =>
    line.raw
      ? line
      : { text: line.text === "" ? "" : `${index === 0 ? first : rest}${line.text}`, raw: false },
  );
}
