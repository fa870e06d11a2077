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

  it("gives a level only when the part the provider counted is past it, and arms it again only when the size shown is below it", () => {
    const warnings = new ContextWarnings([0.85]);
    // 88% shown, of which 80% counted and the rest an estimate of what came after: no warning yet.
    expect(warnings.check(88, 100, 80)).toBeUndefined();
    // The answer's own count: 86%.
    expect(warnings.check(86, 100, 86)).toBe(0.85);
    // The count below the level with the estimate above it (an output just appended, estimated
    // large): not armed again, so the next count past it gives no second warning.
    expect(warnings.check(89, 100, 83)).toBeUndefined();
    expect(warnings.check(90, 100, 90)).toBeUndefined();
    // A real drop (a clearing: even the size shown is below): armed again.
    expect(warnings.check(60, 100, 55)).toBeUndefined();
    expect(warnings.check(87, 100, 87)).toBe(0.85);
  });

  it("for any sequence of sizes, warns at a level only when the counted context is past it, and never twice without the size shown dropping below it", () => {
    const size = fc.record({
      used: fc.integer({ min: 0, max: 120 }),
      estimated: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(fc.array(size, { maxLength: 60 }), (sizes) => {
        const warnings = new ContextWarnings(DEFAULT_CONTEXT_WARNINGS);
        const armed = new Map(DEFAULT_CONTEXT_WARNINGS.map((level) => [level, true]));
        for (const { used, estimated } of sizes) {
          const counted = Math.max(0, used - estimated);
          const level = warnings.check(used, 100, counted);
          if (level !== undefined) {
            expect(counted / 100).toBeGreaterThanOrEqual(level);
            expect(armed.get(level)).toBe(true);
          }
          for (const each of DEFAULT_CONTEXT_WARNINGS)
            if (used / 100 < each) armed.set(each, true);
            else if (each === level || (level !== undefined && each < level)) armed.set(each, false);
        }
      }),
    );
  });
});
