import { describe, expect, it } from "vitest";
import {
  groupTurns,
  preparedPlan,
  prepareSummary,
  runCompaction,
  type SummariseFn,
  sizeTurns,
} from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";
import { assistant, call, orphans, results, user } from "./builders.js";

/** Three finished turns (the second with a tool call and its result). */
const FINISHED: Message[] = [
  user("Set up the project"),
  assistant("Done: package.json created."),
  user("Add a test for parseConfig"),
  assistant([call("c1", "write_file", { path: "test/parse-config.test.ts", content: "..." })]),
  results({ id: "c1", name: "write_file", text: "written" }),
  assistant("Test added."),
  user("Run the tests"),
  assistant("All green."),
];
/** Turns added after the summary was prepared: one finished, one in flight. */
const ADDED: Message[] = [user("Now the README"), assistant("README written."), user("And the changelog")];

function counting(reply: string): { summarise: SummariseFn; calls: () => number } {
  let calls = 0;
  return {
    summarise: async () => {
      calls += 1;
      return { text: reply };
    },
    calls: () => calls,
  };
}

async function prepared(budgetTokens: number) {
  const model = counting("PREPARED");
  const outcome = await prepareSummary({
    context: { messages: FINISHED },
    budgetTokens,
    systemPrompt: "SUMMARISE",
    activeModel: "anthropic/claude-sonnet-4-5",
    summarise: model.summarise,
  });
  if (outcome.type !== "prepared") throw new Error(`nothing prepared: ${outcome.type}`);
  return { outcome, calls: model.calls };
}

describe("prepareSummary", () => {
  it("summarises the prefix a compaction would, with the longest suffix that fits kept out of it", async () => {
    const { outcome, calls } = await prepared(0);
    expect(calls()).toBe(1);
    expect(outcome.prepared.turns).toBe(3);
    const kept = await prepared(sizeTurns(groupTurns(FINISHED)).at(-1)?.tokens ?? 0);
    expect(kept.outcome.prepared.turns).toBe(2);
  });

  it("on top of a summary held for the first turns: one request carrying only the turns after it, the held summary as previous", async () => {
    const held = await prepared(
      sizeTurns(groupTurns(FINISHED))
        .slice(1)
        .reduce((sum, turn) => sum + turn.tokens, 0),
    );
    expect(held.outcome.prepared.turns).toBe(1);
    const asked: string[] = [];
    const outcome = await prepareSummary({
      context: { messages: [...FINISHED, ...ADDED.slice(0, 2)] },
      budgetTokens: 0,
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: async (_model, request) => {
        asked.push(JSON.stringify(request));
        return { text: "ON TOP" };
      },
      onTopOf: held.outcome.prepared,
    });
    expect(outcome).toMatchObject({
      type: "prepared",
      prepared: { turns: 4, summary: { summary: "ON TOP" } },
    });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("<previous-summary>");
    expect(asked[0]).toContain("PREPARED");
    expect(asked[0]).toContain("Run the tests");
    expect(asked[0]).toContain("README written.");
    expect(asked[0]).not.toContain("Set up the project");
    // The plan is still the whole prefix's: what a compaction applying it summarises.
    if (outcome.type === "prepared") expect(outcome.plan.summarise).toHaveLength(4);
  });

  it("summarises the whole prefix when the summary held covers as many turns as the prefix", async () => {
    const held = await prepared(0);
    const asked: string[] = [];
    const outcome = await prepareSummary({
      context: { messages: FINISHED },
      budgetTokens: 0,
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: async (_model, request) => {
        asked.push(JSON.stringify(request));
        return { text: "WHOLE" };
      },
      onTopOf: held.outcome.prepared,
    });
    expect(outcome).toMatchObject({ type: "prepared", prepared: { turns: 3 } });
    expect(asked[0]).toContain("Set up the project");
    expect(asked[0]).not.toContain("<previous-summary>");
  });

  it("prepares nothing when every turn fits the budget", async () => {
    const model = counting("never");
    const outcome = await prepareSummary({
      context: { messages: FINISHED },
      budgetTokens: 1_000_000,
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: model.summarise,
    });
    expect(outcome).toEqual({ type: "nothing-to-summarise" });
    expect(model.calls()).toBe(0);
  });
});

describe("runCompaction with a prepared summary", () => {
  it("on overflow: no summary request, the prepared turns summarised, every turn after them kept whole with the turn in flight last, the record as v1 writes it", async () => {
    const { outcome } = await prepared(0);
    const model = counting("must not be asked");
    const messages = [...FINISHED, ...ADDED];
    const result = await runCompaction({
      context: { messages },
      trigger: "overflow",
      lastTurnInFlight: true,
      // The turns added since it was written fit the keep budget: a new summary would take no more.
      budgetTokens: sizeTurns(groupTurns(ADDED)).reduce((total, turn) => total + turn.tokens, 0),
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: model.summarise,
      prepared: outcome.prepared,
    });
    expect(model.calls()).toBe(0);
    if (result.type !== "compacted") throw new Error(result.type);
    expect(result.record).toMatchObject({
      summary: "PREPARED",
      trigger: "overflow",
      model: "anthropic/claude-sonnet-4-5",
      fellBack: false,
      turnsSummarised: 3,
      turnsKept: 2,
    });
    // Rules 1, 2 and 4: whole turns, verbatim, in order, no dangling tool call or result.
    expect(result.kept).toEqual(ADDED);
    expect(orphans(result.kept)).toEqual({ calls: [], results: [] });
    expect(result.plan.inFlight?.messages).toEqual([ADDED[2]]);
  });

  it("on overflow, when the turns added since no longer fit beside the turn in flight: summarises those a new summary would take on top of it, in one request, and keeps what v1 keeps", async () => {
    const { outcome } = await prepared(0);
    const asked: string[] = [];
    const result = await runCompaction({
      context: { messages: [...FINISHED, ...ADDED] },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 0,
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: async (_model, request) => {
        asked.push(request.userPrompt);
        return { text: "PREPARED AND README" };
      },
      prepared: outcome.prepared,
    });
    // One request: the prepared summary as the previous one, and only the turn added since.
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain("PREPARED");
    expect(asked[0]).toContain("Now the README");
    expect(asked[0]).not.toContain("Add a test for parseConfig");
    if (result.type !== "compacted") throw new Error(result.type);
    expect(result.record).toMatchObject({ summary: "PREPARED AND README", turnsSummarised: 4, turnsKept: 1 });
    // As v1 plans with this budget: only the turn in flight is kept.
    expect(result.kept).toEqual([ADDED[2]]);
  });

  it("on overflow, applies it as written when what it keeps, the turn in flight included, fits the room the learned window leaves, though past the configured budget", async () => {
    const { outcome } = await prepared(0);
    const model = counting("must not be asked");
    const added = sizeTurns(groupTurns(ADDED)).reduce((total, turn) => total + turn.tokens, 0);
    const run = (room: number) =>
      runCompaction({
        context: { messages: [...FINISHED, ...ADDED] },
        trigger: "overflow",
        lastTurnInFlight: true,
        budgetTokens: 0,
        preparedRoomTokens: room,
        systemPrompt: "SUMMARISE",
        activeModel: "anthropic/claude-sonnet-4-5",
        summarise: model.summarise,
        prepared: outcome.prepared,
      });
    const fits = await run(added);
    expect(model.calls()).toBe(0);
    expect(fits).toMatchObject({ type: "compacted", record: { summary: "PREPARED", turnsKept: 2 } });
    // One token less and it no longer fits: the turn added since is summarised on top.
    const tight = await run(added - 1);
    expect(model.calls()).toBe(1);
    expect(tight).toMatchObject({ type: "compacted", record: { turnsSummarised: 4, turnsKept: 1 } });
  });

  it("is not applied where it cannot stand: a turn in flight among its turns, or none", () => {
    const sized = sizeTurns(groupTurns(FINISHED));
    expect(preparedPlan(sized, 3, true)).toBeUndefined();
    expect(preparedPlan(sized, 0, false)).toBeUndefined();
    expect(preparedPlan(sized, 4, false)).toBeUndefined();
    expect(preparedPlan(sized, 2, true)?.inFlight).toBe(sized[2]);
  });

  it("asks for a summary as v1 does when the prepared one does not fit the context", async () => {
    const { outcome } = await prepared(0);
    const model = counting("FRESH");
    const result = await runCompaction({
      context: { messages: FINISHED },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 0,
      systemPrompt: "SUMMARISE",
      activeModel: "anthropic/claude-sonnet-4-5",
      summarise: model.summarise,
      prepared: outcome.prepared,
    });
    expect(model.calls()).toBe(1);
    expect(result.type === "compacted" ? result.record.summary : "").toBe("FRESH");
  });
});
