import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatCount } from "../../src/core/index.js";

describe("formatCount", () => {
  it("writes any integer as toLocaleString('en-US') does, without ICU", () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (value) => {
        expect(formatCount(value)).toBe(value.toLocaleString("en-US"));
      }),
    );
    expect(formatCount(0)).toBe("0");
    expect(formatCount(999)).toBe("999");
    expect(formatCount(1000)).toBe("1,000");
    expect(formatCount(12345678)).toBe("12,345,678");
  });

  it("rounds a fraction first", () => {
    expect(formatCount(1234.6)).toBe("1,235");
    expect(formatCount(0.4)).toBe("0");
  });
});
