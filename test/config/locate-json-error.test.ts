import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateJsonError } from "../../src/config/index.js";

function isValidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("locateJsonError", () => {
  it("agrees with JSON.parse on which texts are valid JSON", () => {
    const fragments = fc.constantFrom(
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"a"',
      '"\\n"',
      '"\\x"',
      "1",
      "-0.5e3",
      "01",
      "true",
      "nul",
      " ",
      "\n",
      "/",
      '"',
    );
    fc.assert(
      fc.property(fc.array(fragments, { maxLength: 12 }), (parts) => {
        const text = parts.join("");
        expect(locateJsonError(text) === undefined).toBe(isValidJson(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts any JSON.stringify output", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(locateJsonError(JSON.stringify(value, null, 2))).toBeUndefined();
      }),
    );
  });

  it("reports 1-based line and column", () => {
    expect(locateJsonError('{\n  "a": tru\n}')).toMatchObject({ line: 2, column: 8, offset: 9 });
  });
});
