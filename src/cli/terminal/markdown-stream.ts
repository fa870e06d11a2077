import { type Highlight, TerminalMarkdown } from "./markdown-terminal.js";

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

  constructor(markdown: TerminalMarkdown) {
    this.#markdown = markdown;
  }

  /** Takes the next piece of the answer and returns what can be written now (whole lines). */
  push(text: string): string {
    this.#pending += text;
    if (!text.includes("\n")) return "";
    const complete = this.#pending.slice(0, this.#pending.lastIndexOf("\n") + 1);
    const blocks = this.#markdown.blocks(complete);
    const last = blocks.at(-1);
    if (last === undefined) return "";
    const upto = isFinished(last, complete) ? last.end : last.start;
    if (upto === 0) return "";
    const cut = lineOffset(complete, upto);
    const ready = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.#render(ready);
  }

  /** Renders whatever is left (the answer ended, or a notice must be written); the next push starts afresh. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    const out = this.#render(rest);
    this.#wrote = false;
    return out;
  }

  #render(source: string): string {
    if (source.trim() === "") return "";
    const out = this.#markdown.render(source);
    const separated = this.#wrote ? `\n${out}` : out;
    this.#wrote = true;
    return separated;
  }
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
