import { stripVTControlCharacters } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createHighlight } from "../../src/frontends/terminal/toolkit/code-highlight.js";
import { MarkdownStream } from "../../src/frontends/terminal/toolkit/markdown-stream.js";
import { type RenderEnv, TerminalMarkdown } from "../../src/frontends/terminal/toolkit/markdown-terminal.js";

const plain = (text: string): string => stripVTControlCharacters(text);
const render = (source: string, width?: number): string => new TerminalMarkdown(() => width).render(source);

describe("Markdown rendered for the terminal", () => {
  it("renders headings, emphasis, inline code and links as styles, not syntax", () => {
    const out = render("# Title\n\nSome **bold**, *italic*, ~~gone~~ and `code`; [docs](https://x.dev/d).\n");
    expect(plain(out)).toBe("Title\n\nSome bold, italic, gone and code; docs (https://x.dev/d).\n");
    expect(out).toContain("\u001b[4m\u001b[1mTitle");
    expect(out).toContain("\u001b[1mbold\u001b[22m");
    expect(out).toContain("\u001b[3mitalic\u001b[23m");
    expect(out).toContain("\u001b[9mgone\u001b[29m");
    expect(out).toContain("\u001b[36mcode\u001b[39m");
    expect(out).toContain("\u001b[4mdocs\u001b[24m");
  });

  it("renders nested and numbered lists with hanging indents, and quotes with a bar", () => {
    const out = render("3. three\n4. four\n   - inner item that wraps\n\n> quoted text\n", 20);
    expect(plain(out)).toBe("3. three\n4. four\n   • inner item that\n     wraps\n\n│ quoted text\n");
  });

  it("lays out a table in columns, and shows one too wide for the terminal as its source", () => {
    const table = "| name | size |\n|:-----|-----:|\n| a | 1 |\n| bb | 22 |\n";
    expect(plain(render(table, 40))).toBe("name │ size\n─────┼─────\na    │    1\nbb   │   22\n");
    expect(plain(render(table, 8))).toBe(table);
  });

  it("writes code blocks line for line, never wrapped or indented, also inside a list", () => {
    const line = `x = "${"y".repeat(120)}"`;
    const out = render(`- item\n\n  \`\`\`py\n  ${line}\n      indented()\n  \`\`\`\n`, 30);
    expect(plain(out)).toBe(`• item\n\n\`\`\`py\n${line}\n    indented()\n\`\`\`\n`);
  });

  it("colours fenced code by its language with the highlighter, adding nothing but colour", () => {
    const code = 'const answer: number = 42; // why\nfunction f() { return "a" + answer; }';
    const markdown = new TerminalMarkdown(() => 40, createHighlight());
    const out = markdown.render(`\`\`\`ts\n${code}\n\`\`\`\n\`\`\`nosuchlanguage\nplain\n\`\`\`\n`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for style sequences is the point.
    expect(out).toMatch(/\u001b\[\d+mconst\u001b\[39m/);
    expect(plain(out)).toBe(`\`\`\`ts\n${code}\n\`\`\`\n\n\`\`\`nosuchlanguage\nplain\n\`\`\`\n`);
  });
});

describe("control characters in Markdown", () => {
  it("shows characters that entities decode to (form feed, carriage return), in text, links and images, as visible escapes (fuzz find)", () => {
    const out = render("form&#x0c;feed and back&#x0d;over\n\n[a](http://x/) ![i&#x0d;](y)\n");
    expect(out).toContain("form\\u000cfeed and back\\u000dover");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point.
    expect(out.replace(/\u001b\[[0-9;]*m/g, "")).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
  });
});

describe("a streamed answer rendered block by block", () => {
  const answer = [
    "## Plan",
    "",
    "First a paragraph that",
    "goes on over two lines.",
    "",
    "- one",
    "- two",
    "",
    "```sh",
    "npm test",
    "```",
    "Last words.",
  ].join("\n");

  it("writes each block once, when it is complete, and the same text however the answer is split", () => {
    for (const size of [1, 3, 7, 50]) {
      const stream = new MarkdownStream(new TerminalMarkdown(() => 80));
      let out = "";
      for (let at = 0; at < answer.length; at += size) out += stream.push(answer.slice(at, at + size));
      out += stream.flush();
      expect(plain(out)).toBe(
        "Plan\n\nFirst a paragraph that goes on over two lines.\n\n• one\n• two\n\n```sh\nnpm test\n```\n\nLast words.\n",
      );
    }
  });

  it("resolves a reference-style link whose definition came in an earlier block, and leaves no line for a block of definitions alone", () => {
    const text = "Intro.\n\n[docs]: https://example.com/docs\n\nSee [the docs][docs] and [docs].\n";
    for (const size of [1, 5, text.length]) {
      const stream = new MarkdownStream(new TerminalMarkdown(() => 80));
      let out = "";
      for (let at = 0; at < text.length; at += size) out += stream.push(text.slice(at, at + size));
      out += stream.flush();
      expect(plain(out)).toBe(
        "Intro.\n\nSee the docs (https://example.com/docs) and docs (https://example.com/docs).\n",
      );
    }
  });

  it("forgets an answer's definitions when it ends: the next answer's [docs] is not a link", () => {
    const stream = new MarkdownStream(new TerminalMarkdown(() => 80));
    stream.push("[docs]: https://example.com/docs\n\nSee [docs].\n\n");
    stream.flush();
    stream.push("Again [docs].\n");
    expect(plain(stream.flush())).toBe("Again [docs].\n");
  });

  it("streams what the whole answer renders to, when each reference is defined before its use", () => {
    const label = fc.constantFrom("a", "B", "docs", "a b");
    const block = fc.oneof(
      fc
        .tuple(fc.constantFrom("Some words", "More *text*", "A `code` span"), label, fc.boolean())
        .map(([words, name, full]) => ({
          uses: name,
          text: full ? `${words} [see][${name}].` : `${words} [${name}].`,
        })),
      fc
        .tuple(label, fc.constantFrom("https://example.com/x", "/y 'title'", "<https://e.org/z>"))
        .map(([name, href]) => ({ defines: name, text: `[${name}]: ${href}` })),
      fc
        .constantFrom("# Heading", "```\ncode [a]\n```", "- one item", "Plain paragraph\nover two lines")
        .map((text) => ({ text })),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 12 }), fc.integer({ min: 1, max: 30 }), (blocks, size) => {
        const defined = new Set<string>();
        const kept: string[] = [];
        for (const item of blocks) {
          // A link is only generated after its definition: what a stream can know when it writes it.
          if ("uses" in item && !defined.has(item.uses?.toLowerCase() ?? "")) continue;
          if ("defines" in item && item.defines !== undefined) defined.add(item.defines.toLowerCase());
          kept.push(item.text);
        }
        const text = `${kept.join("\n\n")}\n`;
        const stream = new MarkdownStream(new TerminalMarkdown(() => 80));
        let out = "";
        for (let at = 0; at < text.length; at += size) out += stream.push(text.slice(at, at + size));
        out += stream.flush();
        expect(out).toBe(kept.length === 0 ? "" : new TerminalMarkdown(() => 80).render(text));
      }),
      { numRuns: 500 },
    );
  });

  it("holds a block back until nothing can extend it", () => {
    const stream = new MarkdownStream(new TerminalMarkdown(() => 80));
    expect(plain(stream.push("## Head\n"))).toBe("Head\n");
    expect(stream.push("A paragraph\n")).toBe("");
    expect(plain(stream.push("\n"))).toBe("\nA paragraph\n");
    expect(stream.push("```js\nlet a = 1;\n")).toBe("");
    expect(plain(stream.push("```\n"))).toBe("\n```js\nlet a = 1;\n```\n");
    expect(stream.push("- a\n\n")).toBe("");
    expect(plain(stream.flush())).toBe("\n• a\n");
  });
});

/**
 * The streaming rule as it was before lines that cannot change the open block were skipped: parse
 * all pending text at every newline. The property below holds the optimised stream to it.
 */
class ReparsingStream {
  readonly #markdown: TerminalMarkdown;
  #pending = "";
  #wrote = false;
  constructor(markdown: TerminalMarkdown) {
    this.#markdown = markdown;
  }
  push(text: string): string {
    this.#pending += text;
    if (!text.includes("\n")) return "";
    const complete = this.#pending.slice(0, this.#pending.lastIndexOf("\n") + 1);
    const last = this.#markdown.blocks(complete).at(-1);
    if (last === undefined) return "";
    const finished =
      last.type === "heading_open" ||
      last.type === "hr" ||
      (last.type === "fence" && last.closed) ||
      ((last.type === "paragraph_open" || last.type === "table_open") && complete.endsWith("\n\n"));
    const upto = finished ? last.end : last.start;
    if (upto === 0) return "";
    const cut = complete.split("\n").slice(0, upto).join("\n").length + 1;
    const ready = this.#pending.slice(0, cut);
    this.#pending = this.#pending.slice(cut);
    return this.#render(ready);
  }
  flush(): string {
    const out = this.#render(this.#pending);
    this.#pending = "";
    this.#wrote = false;
    this.#env = {};
    return out;
  }
  #env: RenderEnv = {};
  #render(source: string): string {
    if (source.trim() === "") return "";
    const out = this.#markdown.render(source, this.#env);
    if (out === "") return "";
    const separated = this.#wrote ? `\n${out}` : out;
    this.#wrote = true;
    return separated;
  }
}

describe("MarkdownStream skipping lines that cannot change the open block", () => {
  const LINES = [
    "plain words go on",
    "more text, with `code` and *emphasis*",
    "a <b>tag</b> inside",
    "",
    "",
    "# heading",
    "- item",
    "- another item",
    "* star item",
    "+ plus item",
    "- - -",
    "-",
    "  - nested item",
    "    - deeper item",
    "3. third",
    "10) tenth",
    "> more quote",
    ">",
    "1. first",
    "2) second",
    "> quoted",
    "```",
    "```js",
    "~~~",
    "    indented code",
    "\tcode with a tab",
    "===",
    "---",
    "***",
    "| a | b |",
    "|---|---|",
    "text | with a pipe",
    "<div>",
    "</div>",
    "[ref]: https://example.com",
    "see [ref]",
    "[label]: https://example.com/label 'a title'",
    "see [the text][label] and [label][]",
    "   three spaces in",
  ];

  it("writes exactly what re-parsing at every newline writes, push by push, for any text and any split", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...LINES), { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }),
        (lines, sizes) => {
          const text = `${lines.join("\n")}\n`;
          const fast = new MarkdownStream(new TerminalMarkdown(() => 80));
          const slow = new ReparsingStream(new TerminalMarkdown(() => 80));
          let at = 0;
          for (let step = 0; at < text.length; step++) {
            const size = sizes[step % sizes.length] ?? 1;
            const piece = text.slice(at, at + size);
            at += size;
            expect(fast.push(piece)).toBe(slow.push(piece));
          }
          expect(fast.flush()).toBe(slow.flush());
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("re-parses where a line may start another block: after a block that ends before the text does, a quote after a blank line", () => {
    for (const text of [
      "    - code\n[ref]: https://example.com\n    - code again\n",
      "> quoted\n\n> another quote\n",
      "- item\n* another list\n",
      "1. one\n2) another list\n",
      "- item\n- - -\n",
      "text\n===\n",
    ]) {
      const fast = new MarkdownStream(new TerminalMarkdown(() => 80));
      const slow = new ReparsingStream(new TerminalMarkdown(() => 80));
      for (const char of text) expect(fast.push(char), JSON.stringify(text)).toBe(slow.push(char));
      expect(fast.flush()).toBe(slow.flush());
    }
  });
});
