import { describe, expect, it } from "vitest";
import { reclaimedShown } from "../../src/agent/context-clearing.js";

const deps = (shown: number, estimated: number) => ({
  requestTokens: () => shown,
  estimatedTokens: () => estimated,
});

describe("what a clearing takes out of the size shown", () => {
  it("is the cleared outputs' share of panto's estimate, applied to the provider's count", () => {
    // The provider counts 60k of a request panto estimates at 90k; the outputs cleared are 45k of it.
    expect(reclaimedShown(45_000, deps(60_000, 90_000))).toBe(30_000);
  });

  it("never takes the whole size or more, however far the estimate overcounts the outputs (digits)", () => {
    // `seq 1 300000`: 30k characters of digits, estimated near one token each, counted far lower;
    // the request the provider counted at 12,157 does not drop to 0 (it was 3,357 next time).
    const taken = reclaimedShown(30_000, deps(12_157, 33_000));
    expect(taken).toBe(11_052);
    expect(12_157 - taken).toBeGreaterThan(0);
    expect(reclaimedShown(50_000, deps(12_157, 33_000))).toBe(12_157);
  });

  it("is the estimate itself where the size shown is the estimate (no usage yet)", () => {
    expect(reclaimedShown(5_000, deps(20_000, 20_000))).toBe(5_000);
    expect(reclaimedShown(5_000, deps(0, 0))).toBe(0);
  });
});
