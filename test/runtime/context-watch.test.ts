import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestSize } from "../../src/agent/index.js";
import { ContextWatch } from "../../src/runtime/context-watch.js";
import type { RunContext } from "../../src/runtime/run-context.js";
import type { RunEvent } from "../../src/runtime/run-events.js";

/**
 * A run whose next request has the size `sizes` gives at each check, in a 10,000-token window the
 * server reports; what the watch emits is collected, and the compactions it asks to prepare counted.
 */
function watchedRun(options: {
  warnings: number[];
  prepareAt?: number;
  dueReclaim?: number;
  coldAfterMs?: number;
  msUntilCold?: number;
}) {
  const emitted: RunEvent[] = [];
  let size: RequestSize = { tokens: 0, source: "estimate" };
  let prepared = 0;
  let preparedWhileCold = 0;
  const run = {
    models: {},
    modelClient: () => ({ contextWindow: async () => 10_000 }),
    events: { emit: (event: RunEvent) => emitted.push(event) },
    agent: {
      model: "fake/model",
      learnedWindow: () => undefined,
      contextSize: () => size,
      dueClearingReclaim: async () => options.dueReclaim ?? 0,
      prepareCompaction: async () => {
        prepared += 1;
        return undefined;
      },
      prepareWhileCold: async () => {
        preparedWhileCold += 1;
        return undefined;
      },
      msUntilCold: () => options.msUntilCold,
      discardPreparedCompaction: () => false,
    },
  } as unknown as RunContext;
  const watch = new ContextWatch(() => run, {
    warnings: options.warnings,
    ...(options.prepareAt === undefined ? {} : { prepareAt: options.prepareAt }),
    ...(options.coldAfterMs === undefined ? {} : { coldAfterMs: options.coldAfterMs }),
  });
  return {
    watch,
    preparedWhileCold: () => preparedWhileCold,
    warnings: () => emitted.filter((event) => event.type === "context-warning"),
    prepared: () => prepared,
    /** The next check's size: `tokens` shown, of which the provider counted `counted`. */
    sizeIs: (tokens: number, counted?: number) => {
      size = { tokens, source: "usage", ...(counted === undefined ? {} : { countedTokens: counted }) };
    },
  };
}

const answer = (final: boolean): RunEvent =>
  ({
    type: "assistant-message",
    message: {
      role: "assistant",
      content: final
        ? [{ type: "text", text: "done" }]
        : [{ type: "tool-call", id: "c", name: "ls", arguments: {} }],
    },
  }) as unknown as RunEvent;

const cleared = { type: "context-cleared" } as unknown as RunEvent;

describe("ContextWatch: warnings rest on what the provider counted", () => {
  it("does not warn on a size past a level only by the estimate of an output just appended, and warns once the count passes it", async () => {
    const t = watchedRun({ warnings: [0.85] });
    // After a clearing mid-turn: 8,000 counted, plus a fresh output estimated large.
    t.sizeIs(8_900, 8_000);
    t.watch.onEvent(cleared);
    await t.watch.settled();
    expect(t.warnings()).toEqual([]);
    // The next answer's usage: the provider counts 8,300, still below 85%.
    t.sizeIs(8_300, 8_300);
    t.watch.onEvent(answer(true));
    await t.watch.settled();
    expect(t.warnings()).toEqual([]);
    t.sizeIs(8_700, 8_700);
    t.watch.onEvent(answer(true));
    await t.watch.settled();
    expect(t.warnings()).toMatchObject([{ level: 0.85, used: 8_700, size: 10_000 }]);
  });

  it("never warns on a size that is the local estimate alone", async () => {
    const t = watchedRun({ warnings: [0.5] });
    t.sizeIs(9_000);
    t.watch.onEvent(answer(true));
    await t.watch.settled();
    expect(t.warnings()).toEqual([]);
  });

  it("prepares a compaction at a turn's end past prepare_compaction_at, unless the clearing due next brings it back under", async () => {
    const under = watchedRun({ warnings: [], prepareAt: 0.8, dueReclaim: 1_500 });
    under.sizeIs(8_500, 8_500);
    under.watch.onEvent(answer(true));
    await under.watch.settled();
    expect(under.prepared()).toBe(0);

    const over = watchedRun({ warnings: [], prepareAt: 0.8, dueReclaim: 300 });
    over.sizeIs(8_500, 8_500);
    // Not at a tool call: only a turn's end prepares.
    over.watch.onEvent(answer(false));
    await over.watch.settled();
    expect(over.prepared()).toBe(0);
    over.watch.onEvent(answer(true));
    await over.watch.settled();
    expect(over.prepared()).toBe(1);
  });
});

describe("ContextWatch: compact_when_cold's summary, written while the user is away", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks the agent once, a second past the cache's lifetime after the turn's last answer; a later turn starts the wait again", async () => {
    vi.useFakeTimers();
    const t = watchedRun({ warnings: [], coldAfterMs: 300_000 });
    t.watch.onEvent(answer(true));
    await vi.advanceTimersByTimeAsync(300_999);
    expect(t.preparedWhileCold()).toBe(0);
    // The user is back before it fires: a tool round, then the turn's end.
    t.watch.onEvent(answer(false));
    await vi.advanceTimersByTimeAsync(301_000);
    expect(t.preparedWhileCold()).toBe(0);
    t.watch.onEvent(answer(true));
    await vi.advanceTimersByTimeAsync(301_000);
    expect(t.preparedWhileCold()).toBe(1);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(t.preparedWhileCold()).toBe(1);
  });

  it("never asks without the setting (a one-shot run, or compact_when_cold unset), nor once closed", async () => {
    vi.useFakeTimers();
    const off = watchedRun({ warnings: [] });
    off.watch.onEvent(answer(true));
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(off.preparedWhileCold()).toBe(0);
    const closed = watchedRun({ warnings: [], coldAfterMs: 300_000 });
    closed.watch.onEvent(answer(true));
    await closed.watch.close();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(closed.preparedWhileCold()).toBe(0);
  });

  it("on a session opened, waits only for what is left of the cache's lifetime: at once for one already cold", async () => {
    vi.useFakeTimers();
    const cold = watchedRun({ warnings: [], coldAfterMs: 300_000, msUntilCold: -3_600_000 });
    cold.watch.opened();
    await vi.advanceTimersByTimeAsync(0);
    expect(cold.preparedWhileCold()).toBe(1);
    const warm = watchedRun({ warnings: [], coldAfterMs: 300_000, msUntilCold: 120_000 });
    warm.watch.opened();
    await vi.advanceTimersByTimeAsync(120_999);
    expect(warm.preparedWhileCold()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(warm.preparedWhileCold()).toBe(1);
  });
});
