import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineMatcher, matchLines } from "../../src/tools/line-matcher.js";

function naiveMatches(text: string, pattern: string, ignoreCase: boolean): number[] {
  const regex = createLineMatcher(pattern, ignoreCase).line;
  return text
    .split("\n")
    .map((line, index) => (regex.test(line.replace(/\r$/, "")) ? index + 1 : 0))
    .filter((number) => number > 0);
}

describe("matchLines", () => {
  it("finds the same lines as testing each line on its own, whatever the text and pattern", () => {
    const patterns = fc.constantFrom(
      "a",
      "^a",
      "b$",
      "^$",
      "a\\s*$",
      "^\\s+b",
      "\\bab\\b",
      "a.b",
      "[^a]",
      "A",
      "(?!b)a",
      "a(?=$)",
    );
    const text = fc.array(fc.constantFrom("a", "b", " ", "\n", "\r\n", "\r", "ab", "\u2028"), {
      maxLength: 20,
    });
    fc.assert(
      fc.property(text, patterns, fc.boolean(), (parts, pattern, ignoreCase) => {
        const joined = parts.join("");
        const found = matchLines(joined, createLineMatcher(pattern, ignoreCase), 1000);
        expect(found.map((entry) => Number(entry.split(":")[0]))).toEqual(
          naiveMatches(joined, pattern, ignoreCase),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it("stops at the limit", () => {
    expect(matchLines("x\nx\nx\n", createLineMatcher("x", false), 2)).toEqual(["1: x", "2: x"]);
  });

  it("accepts unicode property escapes", () => {
    expect(matchLines("abc\nÄ\n", createLineMatcher("^\\p{Lu}$", false), 10)).toEqual(["2: Ä"]);
  });
});
