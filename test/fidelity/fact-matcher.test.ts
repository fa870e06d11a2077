import { describe, expect, it } from "vitest";
import { factMatcher, keyTerms } from "../../src/fidelity/index.js";

describe("factMatcher", () => {
  it("finds paths, commands and errors by normalised substring: case, quotes, backticks, ./ and spacing ignored", () => {
    const matcher = factMatcher(
      "Ran `NPM  test` after reading ./src/App.ts; it said \"Cannot find module 'x'\".",
    );
    expect(matcher.states({ kind: "command", text: "npm test" })).toBe(true);
    expect(matcher.states({ kind: "path", text: "src/app.ts" })).toBe(true);
    expect(matcher.states({ kind: "error", text: "Cannot find module 'x'" })).toBe(true);
    expect(matcher.states({ kind: "path", text: "src/app.tsx" })).toBe(false);
    expect(matcher.states({ kind: "command", text: "npm test -- --watch" })).toBe(false);
  });

  it("counts an instruction as stated when two thirds of its key terms are there, reworded or not", () => {
    expect(keyTerms("Please keep the public formatDate signature unchanged.")).toEqual([
      "public",
      "formatdate",
      "signature",
      "unchanged",
    ]);
    const instruction = {
      kind: "instruction" as const,
      text: "Please keep the public formatDate signature unchanged.",
    };
    expect(factMatcher("The formatDate signature stays unchanged.").states(instruction)).toBe(true);
    expect(factMatcher("formatDate was changed.").states(instruction)).toBe(false);
    const flags = { kind: "instruction" as const, text: "Run the tests with --coverage on node 20." };
    expect(keyTerms(flags.text)).toEqual(["test", "--coverage", "node", "20"]);
    expect(factMatcher("The tests ran with --coverage on Node 20.").states(flags)).toBe(true);
    expect(factMatcher("The tests ran with --coverage.").states(flags)).toBe(false);
  });
});
