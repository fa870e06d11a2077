import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ContextWarnings, DEFAULT_CONTEXT_WARNINGS } from "../../src/runtime/context-warnings.js";

describe("ContextWarnings", () => {
  it("warns once at each default level as the context grows, and not again at the same level", () => {
    const warnings = new ContextWarnings(DEFAULT_CONTEXT_WARNINGS);
    const given = [50, 70, 72, 84, 85, 90, 95, 99].map((used) => warnings.check(used, 100));
    expect(given).toEqual([undefined, 0.7, undefined, undefined, 0.85, undefined, 0.95, undefined]);
  });

  it("arms a level again once the context drops below it, and keeps the ones it stays above", () => {
    const warnings = new ContextWarnings([0.7, 0.85]);
    expect(warnings.check(90, 100)).toBe(0.85);
    expect(warnings.check(80, 100)).toBeUndefined(); // below 85%: armed again; still past 70%
    expect(warnings.check(86, 100)).toBe(0.85);
    expect(warnings.check(20, 100)).toBeUndefined();
    expect(warnings.check(75, 100)).toBe(0.7);
  });

  it("warns only at the highest of several levels passed at once", () => {
    const warnings = new ContextWarnings([0.95, 0.7, 0.85, 0.7]);
    expect(warnings.check(96, 100)).toBe(0.95);
    expect(warnings.check(97, 100)).toBeUndefined();
  });

  it("for any sequence of sizes, warns at a level only when the context is past it, and never twice without dropping below it", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 60 }), (sizes) => {
        const warnings = new ContextWarnings(DEFAULT_CONTEXT_WARNINGS);
        const armed = new Map(DEFAULT_CONTEXT_WARNINGS.map((level) => [level, true]));
        for (const used of sizes) {
          const level = warnings.check(used, 100);
          if (level !== undefined) {
            expect(used / 100).toBeGreaterThanOrEqual(level);
            expect(armed.get(level)).toBe(true);
          }
          for (const each of DEFAULT_CONTEXT_WARNINGS) armed.set(each, used / 100 < each);
        }
      }),
    );
  });
});
