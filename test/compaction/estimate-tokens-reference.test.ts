import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/compaction/index.js";

/**
 * estimateTokens written the plain way, one character at a time from the rules in its JSDoc, with
 * no tables: the fast version must give exactly these counts.
 */
function referenceEstimate(text: string): number {
  let quarters = 0;
  let previous: "start" | "space" | "blank" | "other" | "lower" | "upper" = "start";
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const char = text[index] ?? "";
    const afterBlank = previous === "start" || previous === "space" || previous === "blank";
    if (char >= "a" && char <= "z") {
      // A lower-case letter continues any run of letters.
      run = previous === "lower" || previous === "upper" ? run + 1 : 1;
      if (run % 3 === 1) quarters += 4;
      previous = "lower";
    } else if (char >= "A" && char <= "Z") {
      // An upper-case letter continues only a run of upper-case letters (a camelCase hump starts one).
      run = previous === "upper" ? run + 1 : 1;
      if (run % 3 === 1) quarters += 4;
      previous = "upper";
    } else if (char === " ") {
      if (afterBlank) quarters += 1;
      previous = "space";
    } else if (char === "\t" || char === "\r") {
      if (afterBlank) quarters += 1;
      previous = "blank";
    } else if (char === "\n") {
      quarters += 4;
      previous = "blank";
    } else if (char >= "0" && char <= "9") {
      quarters += previous === "space" ? 8 : 4;
      previous = "other";
    } else {
      if (code < 0x800) quarters += 4;
      else if (code >= 0xd800 && code <= 0xdbff) {
        quarters += 12;
        index++;
      } else quarters += 8;
      previous = "other";
    }
  }
  return Math.ceil(quarters / 4);
}

/** Characters of every class the estimate tells apart, lone surrogates included. */
const mixedChar = fc.oneof(
  fc.constantFrom(..."aqzAQZ07 \t\r\n-{\u0000\u007f"),
  fc.constantFrom("é", "ж", "\u07ff", "\u0800", "我", "\uffff", "😀", "\ud83d", "\ude00", "\udbff", "\udc00"),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);

describe("estimateTokens against its per-character definition", () => {
  it("gives the same count on random text of every character class", () => {
    fc.assert(
      fc.property(fc.array(mixedChar, { maxLength: 400 }), (chars) => {
        const text = chars.join("");
        expect(estimateTokens(text)).toBe(referenceEstimate(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("gives the same count on random Unicode and ASCII strings", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.string({ maxLength: 1_000 })),
        (text) => {
          expect(estimateTokens(text)).toBe(referenceEstimate(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("gives the same count on long code-like text with lines, words and numbers", () => {
    const word = fc.stringMatching(/^[A-Za-z_]{1,12}$/);
    const line = fc.array(fc.oneof(word, fc.constantFrom(" ", "  ", "(", ");", " = ", "0", " 42", "\t")), {
      maxLength: 20,
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 80 }), (lines) => {
        const text = lines.map((parts) => parts.join("")).join("\n");
        expect(estimateTokens(text)).toBe(referenceEstimate(text));
      }),
      { numRuns: 300 },
    );
  });
});
