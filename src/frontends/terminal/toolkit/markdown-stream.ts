import { type Highlight, type RenderEnv, TerminalMarkdown } from "./markdown-terminal.js";

type Terminal = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/**
 * Renders a streamed answer as Markdown block by block: each top-level block (paragraph, list,
 * code block, table, …) is rendered once it is complete, i.e. when the next one starts, or sooner
 * when nothing can extend it (a heading, a closed code fence, a paragraph followed by a blank
 * line). Nothing is drawn twice and nothing is redrawn, so there is no flicker; the rest is
 * rendered when the answer ends.
 */
export class MarkdownStream {
  readonly #markdown: TerminalMarkdown;
  #pending = "";
  #wrote = false;
  /** The type of the one block the pending text holds, when the last look found nothing ready. */
  #open: string | undefined;
  /** How much of the pending text (whole lines) that look covered. */
  #looked = 0;
  /**
   * The reference definitions (`[label]: url`) of the blocks rendered so far in this answer, so a
   * link in a later block (`[text][label]`) resolves as it would in the whole answer.
   */
  #env: RenderEnv = {};

  constructor(markdown: TerminalMarkdown) {
    this.#markdown = markdown;
  }

  /** Takes the next piece of the answer and returns what can be written now (whole lines). */
  push(text: string): string {
    this.#pending += text;
    if (!text.includes("\n")) return "";
    const end = this.#pending.lastIndexOf("\n") + 1;
    // Lines that cannot end or change the open block leave the answer as it was: nothing to parse
    // again (re-parsing a long paragraph at every line made streaming it quadratic: a fuzz find).
    if (
      this.#open !== undefined &&
      keepOpen(this.#open, this.#pending.slice(this.#looked, end), this.#pending.slice(0, this.#looked))
    ) {
      this.#looked = end;
      return "";
    }
    const complete = this.#pending.slice(0, end);
    const blocks = this.#markdown.blocks(complete);
    const last = blocks.at(-1);
    this.#open = undefined;
    if (last === undefined) return "";
    const upto = isFinished(last, complete) ? last.end : last.start;
    if (upto === 0) {
      // Only a block that reaches the last line is known to be all there is (a reference
      // definition after it, say, makes no block of its own).
      if (last.end === countLines(complete)) {
        this.#open = last.type;
        this.#looked = end;
      }
      return "";
    }
    const cut = lineOffset(complete, upto);
    const ready = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.#render(ready);
  }

  /** Renders whatever is left (the answer ended, or a notice must be written); the next push starts afresh. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    this.#open = undefined;
    const out = this.#render(rest);
    this.#wrote = false;
    this.#env = {};
    return out;
  }

  #render(source: string): string {
    if (source.trim() === "") return "";
    const out = this.#markdown.render(source, this.#env);
    // A block of reference definitions alone shows nothing, and is no block to leave a line after.
    if (out === "") return "";
    const separated = this.#wrote ? `\n${out}` : out;
    this.#wrote = true;
    return separated;
  }
}

/** A line that may start a block of its own (heading, quote, list, rule, setext underline, fence, HTML, table). */
const MAY_START_BLOCK = /^\s*(?:[#>*+\-=_`~<|]|\d)/;
/** A line that may close a fence. */
const FENCE_MARK = /^\s*(?:`{3,}|~{3,})/;
/** A list item at the left margin: its marker (bullet, or the delimiter after the number) and text. */
const TOP_ITEM = /^(?:([-*+])|\d{1,9}([.)])) +\S/;
/** A thematic break made of bullets ("- - -", "***"), which is not a list item. */
const RULE = /^ {0,3}([-*_])(?: *\1){2,} *$/;

/**
 * Whether the whole `lines` (each ending in "\n"), added after `before` to an open block of type
 * `type` that starts the pending text, leave it the one open block. Only what is certain counts:
 * text going on a paragraph, a fence's or an indented code block's contents, another item at the
 * left margin of a list with the same marker, a quote's next ">" line; anything else is re-parsed.
 */
function keepOpen(type: string, lines: string, before: string): boolean {
  const first = before.slice(0, before.indexOf("\n"));
  let previousBlank = before.endsWith("\n\n") || before === "";
  for (const line of lines.slice(0, -1).split("\n")) {
    const blank = line.trim() === "";
    switch (type) {
      case "paragraph_open":
        if (blank || MAY_START_BLOCK.test(line) || line.includes("|")) return false;
        break;
      case "fence":
        if (FENCE_MARK.test(line)) return false;
        break;
      case "code_block":
        if (!blank && !/^(?: {4}|\t)/.test(line)) return false;
        break;
      case "bullet_list_open":
      case "ordered_list_open":
        if (blank || RULE.test(line) || markerOf(line) === undefined || markerOf(line) !== markerOf(first))
          return false;
        break;
      case "blockquote_open":
        if (blank || previousBlank || !/^ {0,3}>/.test(line)) return false;
        break;
      default:
        return false;
    }
    previousBlank = blank;
  }
  return true;
}

/** The marker of a list item at the left margin ("-", "*", "+", or "." / ")" after a number). */
function markerOf(line: string): string | undefined {
  const match = TOP_ITEM.exec(line);
  return match === null ? undefined : (match[1] ?? match[2]);
}

/** Whether nothing that follows can extend the block. */
function isFinished(block: { type: string; closed: boolean }, source: string): boolean {
  switch (block.type) {
    case "heading_open":
    case "hr":
      return true;
    case "fence":
      return block.closed;
    case "paragraph_open":
    case "table_open":
      return source.endsWith("\n\n");
    default:
      return false;
  }
}

/** How many lines `text` (ending in "\n") holds. */
function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** Where line `line` (0-based) of `text` starts. */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let index = 0; index < line; index++) {
    const next = text.indexOf("\n", offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset;
}

/**
 * The Markdown renderer for the interactive terminal when it shows colour (NO_COLOR and other
 * outputs keep the answer's plain Markdown), or undefined. The syntax highlighter is loaded in
 * the background; code blocks written before it is ready are shown without colours.
 */
export function markdownFor(out: Terminal, colour: boolean): MarkdownStream | undefined {
  if (!colour || out.isTTY !== true) return undefined;
  const markdown = new TerminalMarkdown(() => out.columns);
  void import("./code-highlight.js").then(
    ({ createHighlight }) => {
      markdown.highlight = createHighlight() satisfies Highlight;
    },
    // Without the highlighter code is still shown, only without colours.
    () => {},
  );
  return new MarkdownStream(markdown);
}
