import { describe, expect, it } from "vitest";
import { editDistance, nearestNames } from "../../src/core/did-you-mean.js";

describe("nearestNames", () => {
  it("counts a swap of neighbours as one edit", () => {
    expect(editDistance("compat", "compact")).toBe(1);
    expect(editDistance("cmopact", "compact")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it("offers the closest names first, and none when nothing is close", () => {
    expect(nearestNames("compat", ["compact", "context", "uncompact", "help"])).toEqual(["compact"]);
    expect(nearestNames("pinz", ["unpin", "pin", "pins"])).toEqual(["pin", "pins"]);
    expect(nearestNames("zzzzzz", ["compact", "help"])).toEqual([]);
    expect(
      nearestNames("claude-nonexistent-9", ["claude-haiku-4-5", "claude-sonnet-4-5", "gpt-5"], {
        limit: 2,
        maxDistance: Number.POSITIVE_INFINITY,
      }),
    ).toHaveLength(2);
  });
});
