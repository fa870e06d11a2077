import { describe, expect, it } from "vitest";
import { planRetention } from "../../src/compaction/index.js";
import type { SizedTurn } from "../../src/core/index.js";
import { user } from "./builders.js";

function turns(...sizes: number[]): SizedTurn[] {
  return sizes.map((tokens, index) => ({
    start: index,
    end: index + 1,
    messages: [user(`turn ${index}`)],
    tokens,
    source: "estimate",
  }));
}

const starts = (list: readonly SizedTurn[]) => list.map((turn) => turn.start);

describe("planRetention", () => {
  it("keeps the longest suffix of whole turns within the budget", () => {
    const plan = planRetention(turns(50, 40, 30, 20), { budgetTokens: 55, lastTurnInFlight: false });
    expect(starts(plan.keep)).toEqual([2, 3]);
    expect(starts(plan.summarise)).toEqual([0, 1]);
    expect(plan.keptTokens).toBe(50);
    expect(plan.summarisedTokens).toBe(90);
    expect(plan.inFlight).toBeUndefined();
  });

  it("forced, summarises all but the latest turn when every turn fits, and changes nothing otherwise (/compact --force)", () => {
    const forced = planRetention(turns(10, 20, 30), {
      budgetTokens: 1000,
      lastTurnInFlight: false,
      force: true,
    });
    expect(starts(forced.summarise)).toEqual([0, 1]);
    expect(starts(forced.keep)).toEqual([2]);
    expect(forced.keptTokens).toBe(30);
    expect(forced.summarisedTokens).toBe(30);
    const unforced = planRetention(turns(10, 20, 30), { budgetTokens: 1000, lastTurnInFlight: false });
    expect(unforced.summarise).toEqual([]);
    const tight = planRetention(turns(50, 40, 30, 20), {
      budgetTokens: 55,
      lastTurnInFlight: false,
      force: true,
    });
    expect(starts(tight.keep)).toEqual([2, 3]);
    const single = planRetention(turns(10), { budgetTokens: 1000, lastTurnInFlight: false, force: true });
    expect(single.summarise).toEqual([]);
    expect(starts(single.keep)).toEqual([0]);
  });

  it("stops at the first turn that does not fit instead of skipping it to keep older ones", () => {
    const plan = planRetention(turns(5, 100, 10), { budgetTokens: 20, lastTurnInFlight: false });
    expect(starts(plan.keep)).toEqual([2]);
    expect(starts(plan.summarise)).toEqual([0, 1]);
  });

  it("counts the turn in flight first and always keeps it", () => {
    const plan = planRetention(turns(10, 10, 10, 35), { budgetTokens: 50, lastTurnInFlight: true });
    expect(plan.inFlight?.start).toBe(3);
    expect(starts(plan.keep)).toEqual([2]);
    expect(plan.keptTokens).toBe(45);
    expect(starts(plan.summarise)).toEqual([0, 1]);
  });

  it("keeps only the turn in flight when it alone exceeds the budget", () => {
    const plan = planRetention(turns(1, 1, 500), { budgetTokens: 100, lastTurnInFlight: true });
    expect(plan.inFlight?.start).toBe(2);
    expect(plan.keep).toEqual([]);
    expect(starts(plan.summarise)).toEqual([0, 1]);
    expect(plan.keptTokens).toBe(500);
  });

  it("summarises everything for a manual compaction with a zero budget", () => {
    const plan = planRetention(turns(3, 4), { budgetTokens: 0, lastTurnInFlight: false });
    expect(plan.keep).toEqual([]);
    expect(starts(plan.summarise)).toEqual([0, 1]);
    expect(plan.keptTokens).toBe(0);
  });

  it("has nothing to summarise when everything fits or only the turn in flight exists", () => {
    expect(planRetention(turns(3, 4), { budgetTokens: 7, lastTurnInFlight: false }).summarise).toEqual([]);
    expect(planRetention(turns(900), { budgetTokens: 10, lastTurnInFlight: true }).summarise).toEqual([]);
    expect(planRetention([], { budgetTokens: 10, lastTurnInFlight: true })).toEqual({
      summarise: [],
      keep: [],
      keptTokens: 0,
      summarisedTokens: 0,
    });
  });
});
