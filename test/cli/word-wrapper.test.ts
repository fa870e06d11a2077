import { describe, expect, it } from "vitest";
import { WordWrapper, wrapText } from "../../src/frontends/terminal/toolkit/word-wrapper.js";

/** Feeds text in pieces of `size` characters, as a stream would deliver it. */
function streamed(text: string, width: number, size: number): string {
  const wrapper = new WordWrapper(() => width);
  let out = "";
  for (let at = 0; at < text.length; at += size) out += wrapper.push(text.slice(at, at + size));
  return out + wrapper.flush();
}

const SENTENCE = "Here is a long answer that goes on for a while so that we can see how wrapping behaves.";

describe("WordWrapper", () => {
  it("breaks lines between words, never inside one, however the text is split into pieces", () => {
    for (const size of [1, 3, 7, 100]) {
      const out = streamed(SENTENCE, 20, size);
      expect(out.split("\n").every((line) => line.length <= 20)).toBe(true);
      expect(out.replace(/\n/g, " ")).toBe(SENTENCE);
    }
  });

  it("keeps the text's own newlines and indentation", () => {
    const code = "```ts\n  const x = 1;\n    return x;\n```\n";
    expect(streamed(code, 40, 2)).toBe(code);
  });

  it("never cuts a word longer than a line (a path copies back whole): the terminal wraps it", () => {
    // The terminal wraps the address every 12 columns; "ok" still fits on the row where it ends.
    expect(wrapText("see https://example.com/a/very/long/path ok", 12)).toBe(
      "see https://example.com/a/very/long/path ok",
    );
    expect(wrapText("see https://example.com/a/very/long/path and more words", 12)).toBe(
      "see https://example.com/a/very/long/path and\nmore words",
    );
    expect(wrapText("Session: /tmp/a/very/long/path/to/the/session.jsonl", 20, "  ")).toBe(
      "Session: /tmp/a/very/long/path/to/the/session.jsonl",
    );
  });

  it("breaks CJK text between characters, counting each as two columns", () => {
    expect(wrapText("日本語のテキスト", 6)).toBe("日本語\nのテキ\nスト");
  });

  it("does not count colour codes as columns", () => {
    const red = (text: string): string => `\u001b[31m${text}\u001b[39m`;
    expect(wrapText(`${red("aaaa")} ${red("bbbb")}`, 9)).toBe(`${red("aaaa")} ${red("bbbb")}`);
  });

  it("starts each line it breaks with the hanging indent", () => {
    expect(wrapText("  /compact  summarise older turns into a block", 26, " ".repeat(12))).toBe(
      "  /compact  summarise\n            older turns\n            into a block",
    );
  });

  it("passes text through unchanged when there is no width (not a terminal)", () => {
    const wrapper = new WordWrapper(() => undefined);
    expect(wrapper.push("no wrapping here at all, ")).toBe("no wrapping here at all, ");
    expect(wrapper.atLineStart).toBe(false);
    expect(wrapper.push("done\n")).toBe("done\n");
    expect(wrapper.atLineStart).toBe(true);
  });

  it("holds back only the unfinished word while streaming", () => {
    const wrapper = new WordWrapper(() => 80);
    expect(wrapper.push("hello wor")).toBe("hello");
    expect(wrapper.atLineStart).toBe(false);
    expect(wrapper.push("ld")).toBe("");
    expect(wrapper.flush()).toBe(" world");
  });
});
