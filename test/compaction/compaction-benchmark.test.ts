import { describe, expect, it } from "vitest";
import {
  buildSyntheticSession,
  runCompactionPrepareBenchmark,
} from "../../src/bench/compaction-benchmark.js";
import { groupTurns, sizeTurns } from "../../src/compaction/index.js";

describe("runCompactionPrepareBenchmark", () => {
  it("builds a session of the requested turns whose usage the sizing takes", () => {
    const turns = sizeTurns(groupTurns(buildSyntheticSession(50)));
    expect(turns).toHaveLength(50);
    expect(turns.slice(1).every((turn) => turn.source === "usage")).toBe(true);
    expect(turns[1]?.tokens).toBe(20 + 30 + 300 + 60);
  });

  it("builds the same session without usage on request, which sizing then estimates", () => {
    const withUsage = buildSyntheticSession(20);
    const without = buildSyntheticSession(20, { usage: false });
    expect(without.some((message) => message.role === "assistant" && message.usage !== undefined)).toBe(
      false,
    );
    expect(without.map((message) => message.content)).toEqual(withUsage.map((message) => message.content));
    expect(sizeTurns(groupTurns(without)).every((turn) => turn.source === "estimate")).toBe(true);
  });

  it("reports the turn count and a finite median", () => {
    const result = runCompactionPrepareBenchmark({ turns: 200, runs: 3 });
    expect(result.turns).toBe(200);
    expect(Number.isFinite(result.medianMs)).toBe(true);
    expect(result.medianMs).toBeGreaterThanOrEqual(0);
  });
});
