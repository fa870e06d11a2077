import { describe, expect, it } from "vitest";
import {
  CONTEXT_MODES,
  type ContextFigures,
  MODEL_TIME,
  runContextBenchmark,
} from "../../src/bench/context-benchmark.js";

const v1 = CONTEXT_MODES.find((mode) => mode.id === "v1");
if (v1 === undefined) throw new Error("no v1 mode");

async function figuresFor(
  shape: Parameters<typeof runContextBenchmark>[0]["shape"],
): Promise<ContextFigures> {
  const rows: ContextFigures[] = [];
  await runContextBenchmark({
    modes: [v1 as (typeof CONTEXT_MODES)[number]],
    shape,
    onFigures: (row) => rows.push(row),
  });
  expect(rows).toHaveLength(1);
  return rows[0] as ContextFigures;
}

describe("the context benchmark's harness (npm run bench -- --only=context)", { timeout: 60_000 }, () => {
  it("fails, with no figures, when panto's config schema rejects a mode's key (a feature the build lacks)", async () => {
    const rows: ContextFigures[] = [];
    const run = runContextBenchmark({
      modes: [{ id: "x", name: "a missing feature", config: { no_such_feature: { enabled: true } } }],
      shape: { turns: 2, seed: 1 },
      onFigures: (row) => rows.push(row),
    });
    await expect(run).rejects.toThrow(/mode "a missing feature".*unknown key "no_such_feature"/);
    expect(rows).toEqual([]);
  });

  it("replays the session through the real run: every planned tool output, every token split as the cache model says", async () => {
    const figures = await figuresFor({ turns: 5, seed: 7, outputTokens: { min: 500, max: 2_000 } });
    expect(figures.turns).toBe(5);
    // One or two real tool calls a turn, each answered by a request, plus the turn's closing answer.
    expect(figures.toolOutputTokens.length).toBeGreaterThanOrEqual(5);
    expect(figures.agentRequests).toBe(figures.toolOutputTokens.length + 5);
    for (const tokens of figures.toolOutputTokens) {
      expect(tokens).toBeGreaterThan(400);
      expect(tokens).toBeLessThan(2_500);
    }
    expect(figures.inputTokens + figures.cacheWriteTokens + figures.cacheReadTokens).toBe(
      figures.promptTokens,
    );
    // Each request after the first extends the one before: most of the prompt is read from the cache.
    expect(figures.cacheReadTokens).toBeGreaterThan(figures.cacheWriteTokens);
    expect(figures).toMatchObject({
      compactions: 0,
      summaryRequests: 0,
      overflows: 0,
      clearings: 0,
      rewrites: 0,
    });
    expect(figures.overflowTurnWait).toBeUndefined();
    expect(figures.overflowDelay).toBeUndefined();
    expect(figures.overflowSummaryRequests).toBe(0);
  });

  it("counts an overflow turn's compaction, summary request and the user's modelled wait in it", async () => {
    const figures = await figuresFor({
      turns: 14,
      seed: 3,
      window: 30_000,
      outputTokens: { min: 1_000, max: 4_000 },
    });
    expect(figures.overflows).toBeGreaterThan(0);
    expect(figures.compactions).toBeGreaterThan(0);
    expect(figures.summaryRequests).toBeGreaterThanOrEqual(figures.compactions);
    // The compaction changes the cached prefix: a rewrite, not a clearing.
    expect(figures.rewrites).toBeGreaterThanOrEqual(figures.compactions);
    expect(figures.clearings + figures.clearingRequests + figures.backgroundSummaryRequests).toBe(0);
    const wait = figures.overflowTurnWait;
    expect(wait?.runs).toBe(figures.overflowTurnOwn?.runs);
    // At least the rejection, the summary request and the retry, each with the model's base time.
    expect(wait?.minMs).toBeGreaterThan(MODEL_TIME.REJECTION_MS + 2 * MODEL_TIME.BASE_MS);
    // The overflow's own part: the rejection and the summary request, waited on within the turn.
    expect(figures.overflowSummaryRequests).toBe(figures.summaryRequests);
    expect(figures.overflowDelay?.runs).toBe(wait?.runs);
    expect(figures.overflowDelay?.minMs).toBeGreaterThan(MODEL_TIME.REJECTION_MS + MODEL_TIME.BASE_MS);
    expect(figures.overflowDelay?.maxMs).toBeLessThan(wait?.maxMs as number);
    expect(figures.summaryCostUsd).toBeGreaterThan(0);
    expect(figures.summaryCostUsd).toBeLessThan(figures.costUsd);
  });

  it("with compact_when_cold, compacts after the long pauses with a summary written during them: nothing added to the user's wait", async () => {
    const cold = CONTEXT_MODES.find((mode) => mode.id === "cold");
    if (cold === undefined) throw new Error("no cold mode");
    const rows: ContextFigures[] = [];
    // A small window, so that the context passes 30% of it within a few turns.
    await runContextBenchmark({
      modes: [cold],
      shape: { turns: 20, seed: 2, window: 30_000, outputTokens: { min: 500, max: 2_000 } },
      onFigures: (row) => rows.push(row),
    });
    const figures = rows[0] as ContextFigures;
    expect(figures.coldCompactions).toBeGreaterThan(0);
    expect(figures.coldCompactionDelay?.runs).toBe(figures.coldCompactions);
    expect(figures.coldCompactionDelay?.maxMs).toBe(0);
    expect(figures.backgroundSummaryRequests).toBeGreaterThanOrEqual(figures.coldCompactions);
  });
});
