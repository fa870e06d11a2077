import { describe, expect, it } from "vitest";
import {
  type ClearingInput,
  type ClearingSettings,
  clearingStub,
  DEFAULT_CLEARING,
  planClearing,
} from "../../src/compaction/index.js";
import type { EffectiveContext, Message } from "../../src/core/index.js";

const SETTINGS: ClearingSettings = { ...DEFAULT_CLEARING, minReclaimTokens: 1_000, keepRecent: 2 };
const NOW = Date.parse("2026-01-01T12:00:00Z");

/** A turn: the user asks, the model calls `tool` once per output, the results come back, it answers. */
function turn(n: number, outputs: Array<{ tool: string; text: string }>): Message[] {
  const calls = outputs.map((output, index) => ({
    type: "tool-call" as const,
    id: `call_${n}_${index}`,
    name: output.tool,
    arguments: output.tool === "bash" ? { command: `make step${n}` } : { path: `f${n}.txt` },
  }));
  return [
    { role: "user", content: [{ type: "text", text: `prompt ${n}` }] },
    {
      role: "assistant",
      content: calls,
      provider: "p",
      api: "anthropic-messages",
      model: "m",
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: outputs.map((output, index) => ({
        type: "tool-result" as const,
        toolCallId: `call_${n}_${index}`,
        toolName: output.tool,
        content: [{ type: "text" as const, text: output.text }],
        isError: false,
      })),
    },
    {
      role: "assistant",
      content: [{ type: "text", text: `done ${n}` }],
      provider: "p",
      api: "anthropic-messages",
      model: "m",
      stopReason: "stop",
    },
  ];
}

const big = (seed: string) => `${seed} `.repeat(2_000);

function input(context: EffectiveContext, extra: Partial<ClearingInput> = {}): ClearingInput {
  return {
    context,
    cleared: new Set(),
    latestPromptTokens: 150_000,
    lastRequestAt: NOW - 1_000,
    now: NOW,
    settings: SETTINGS,
    ...extra,
  };
}

const cleared = (plan: ReturnType<typeof planClearing>) =>
  plan.type === "clear" ? plan.results.map((result) => result.toolCallId) : [];

describe("planClearing", () => {
  const context: EffectiveContext = {
    messages: [
      ...turn(1, [
        { tool: "read", text: big("alpha") },
        { tool: "bash", text: `${big("beta")}\n\nExit code: 1` },
      ]),
      ...turn(2, [
        { tool: "grep", text: big("gamma") },
        { tool: "read", text: big("delta") },
      ]),
      ...turn(3, [{ tool: "read", text: big("epsilon") }]),
      // The turn in flight: its results are never cleared.
      { role: "user", content: [{ type: "text", text: "prompt 4" }] },
      ...turn(4, [{ tool: "read", text: big("zeta") }]).slice(1, 3),
    ],
  };

  it("clears every old result past the trigger, oldest first, keeping the most recent and the turn in flight", () => {
    const plan = planClearing(input(context));
    expect(plan.type).toBe("clear");
    // Clearable: call_1_0, call_1_1, call_2_0, call_2_1, call_3_0, call_4_0; the last 2 are kept.
    expect(cleared(plan)).toEqual(["call_1_0", "call_1_1", "call_2_0", "call_2_1"]);
    if (plan.type !== "clear") return;
    expect(plan.reason).toBe("trigger");
    expect(plan.reclaimTokens).toBeGreaterThan(4 * 2_000);
    // The stub is one line naming the tool, the call's argument, how it ended, its size and recall.
    const bash = plan.results[1];
    expect(bash?.stub).toMatch(
      /^\[cleared to save context: output of bash "make step1" \(exit 1\), [\d,]+ tokens; recall \{"tool_result": "call_1_1"\} reads it back\]$/,
    );
    expect(bash?.stub).not.toContain("\n");
  });

  it("never clears the turn in flight, even when keep_recent is 0", () => {
    const plan = planClearing(input(context, { settings: { ...SETTINGS, keepRecent: 0 } }));
    expect(cleared(plan)).toEqual(["call_1_0", "call_1_1", "call_2_0", "call_2_1", "call_3_0"]);
  });

  it("asked for the turn that starts once the latest has ended, counts that turn's results as old too", () => {
    const plan = planClearing(input(context, { settings: { ...SETTINGS, keepRecent: 0 }, turnEnded: true }));
    expect(cleared(plan)).toEqual(["call_1_0", "call_1_1", "call_2_0", "call_2_1", "call_3_0", "call_4_0"]);
    const kept = planClearing(input(context, { turnEnded: true }));
    expect(cleared(kept)).toEqual(["call_1_0", "call_1_1", "call_2_0", "call_2_1"]);
  });

  it("leaves excluded tools' results alone, and they do not count among the recent ones kept", () => {
    const plan = planClearing(input(context, { settings: { ...SETTINGS, excludeTools: ["read"] } }));
    // Clearable: call_1_1 (bash), call_2_0 (grep): both among the 2 most recent clearable ones.
    expect(plan).toEqual({ type: "keep", reason: "below-min-reclaim" });
    const one = planClearing(
      input(context, { settings: { ...SETTINGS, excludeTools: ["read"], keepRecent: 1 } }),
    );
    expect(cleared(one)).toEqual(["call_1_1"]);
  });

  it("never clears a todo result, whatever exclude_tools says: the task list's answer stays", () => {
    const withTodo: EffectiveContext = {
      messages: [...turn(0, [{ tool: "todo", text: big("list") }]), ...context.messages],
    };
    const plan = planClearing(
      input(withTodo, { settings: { ...SETTINGS, excludeTools: ["grep"], keepRecent: 0 } }),
    );
    expect(cleared(plan)).not.toContain("call_0_0");
    expect(cleared(plan)).toEqual(["call_1_0", "call_1_1", "call_2_1", "call_3_0"]);
  });

  it("does not clear below the trigger, nor when the batch reclaims less than min_reclaim_tokens", () => {
    expect(planClearing(input(context, { latestPromptTokens: 90_000 }))).toEqual({
      type: "keep",
      reason: "below-trigger",
    });
    expect(planClearing(input(context, { settings: { ...SETTINGS, minReclaimTokens: 1_000_000 } }))).toEqual({
      type: "keep",
      reason: "below-min-reclaim",
    });
  });

  it("defaults the trigger to half a known window, else 100,000 reported tokens", () => {
    expect(planClearing(input(context, { latestPromptTokens: 60_000 })).type).toBe("keep");
    expect(planClearing(input(context, { latestPromptTokens: 60_000, window: 100_000 })).type).toBe("clear");
    expect(planClearing(input(context, { latestPromptTokens: 100_001 })).type).toBe("clear");
    expect(planClearing(input(context, { latestPromptTokens: 100_000 })).type).toBe("keep");
    expect(
      planClearing(
        input(context, { latestPromptTokens: 2_000, settings: { ...SETTINGS, triggerTokens: 1_000 } }),
      ).type,
    ).toBe("clear");
  });

  it("clears at once when the cache went cold, below the trigger, paying only the hour's premium on what it settles", () => {
    const plan = planClearing(input(context, { latestPromptTokens: 5_000, lastRequestAt: NOW - 301_000 }));
    expect(plan.type).toBe("clear");
    if (plan.type !== "clear") return;
    expect(plan.reason).toBe("cold-cache");
    // The same batch with a warm cache also rewrites the suffix it no longer reads: 1.15x of it.
    const warm = planClearing(input(context, { latestPromptTokens: 5_000, lastRequestAt: NOW - 1_000 }));
    expect(warm.type).toBe("keep");
    const warmPast = planClearing(input(context));
    if (warmPast.type !== "clear") throw new Error("expected a clearing");
    expect(warmPast.results).toEqual(plan.results);
    // Cold: the prompt from the first cleared result through the last, stubbed, written at 2x
    // instead of 1.25x; the first result's stub starts it, the last result's stub ends it.
    const stubs = plan.results.reduce((sum, result) => sum + Math.ceil(result.stub.length / 4), 0);
    expect(plan.cost.rewriteCost).toBeGreaterThanOrEqual(Math.round(0.75 * stubs));
    expect(plan.cost.rewriteCost).toBeLessThan(warmPast.cost.rewriteCost);
    // Still cold-judged by the configured lifetime: 301 s is warm for a 600 s cache.
    expect(
      planClearing(
        input(context, {
          latestPromptTokens: 5_000,
          lastRequestAt: NOW - 301_000,
          settings: { ...SETTINGS, cacheTtlSeconds: 600 },
        }),
      ).type,
    ).toBe("keep");
  });

  it("prices a warm clearing as the rewritten suffix (1.25x written instead of 0.1x read)", () => {
    const plan = planClearing(input(context));
    if (plan.type !== "clear") throw new Error("expected a clearing");
    expect(plan.cost.rewriteCost).toBeGreaterThan(0);
    expect(plan.cost.savedPerRequest).toBe(Math.round(0.1 * plan.reclaimTokens));
    expect(plan.cost.breakEvenRequests).toBe(Math.ceil(plan.cost.rewriteCost / plan.cost.savedPerRequest));
  });

  it("past the trigger with a warm cache, waits for the next cold cache when the session's pauses say it comes before the batch pays off, unless a known window is near", () => {
    // A trigger of its own: the default (half the window) would move with the windows tried here.
    const withTrigger = (extra: Partial<ClearingInput>) =>
      input(context, { settings: { ...SETTINGS, triggerTokens: 100_000 }, ...extra });
    const warm = planClearing(withTrigger({}));
    if (warm.type !== "clear") throw new Error("expected a clearing");
    const breakEven = warm.cost.breakEvenRequests;
    // The cache goes cold sooner than the batch pays for its rewrite: the cold cache clears it for nothing.
    expect(planClearing(withTrigger({ warmRunRequests: breakEven - 1, window: 400_000 }))).toEqual({
      type: "keep",
      reason: "cache-cheaper",
    });
    // It stays warm long enough: clear now.
    expect(planClearing(withTrigger({ warmRunRequests: breakEven, window: 400_000 })).type).toBe("clear");
    // 150,000 reported of a 170,000 window is past 85%: a compaction is near, clear now.
    expect(planClearing(withTrigger({ warmRunRequests: 1, window: 170_000 })).type).toBe("clear");
    // No window known, or no pause on record: the trigger decides, as before.
    expect(planClearing(withTrigger({ warmRunRequests: 1 })).type).toBe("clear");
    expect(planClearing(withTrigger({ window: 400_000 })).type).toBe("clear");
    // A cold cache clears whatever the history says.
    const cold = planClearing(
      input(context, { warmRunRequests: 1, window: 400_000, lastRequestAt: NOW - 301_000 }),
    );
    expect(cold.type === "clear" && cold.reason).toBe("cold-cache");
  });

  it("skips results already cleared, and waits while paused after an undo", () => {
    const first = planClearing(input(context));
    const again = planClearing(input(context, { cleared: new Set(cleared(first)) }));
    expect(again).toEqual({ type: "keep", reason: "below-min-reclaim" });
    expect(planClearing(input(context, { pausedBelowTokens: 160_000 }))).toEqual({
      type: "keep",
      reason: "paused",
    });
    expect(planClearing(input(context, { pausedBelowTokens: 150_000 })).type).toBe("clear");
  });

  it("does nothing when disabled", () => {
    expect(planClearing(input(context, { settings: { ...SETTINGS, enabled: false } }))).toEqual({
      type: "keep",
      reason: "disabled",
    });
  });

  it("names a call without a telling argument by its tool alone, and an error as such", () => {
    const stub = clearingStub(
      { type: "tool-result", toolCallId: "x1", toolName: "mcp_tool", content: [], isError: true },
      { type: "tool-call", id: "x1", name: "mcp_tool", arguments: { depth: 3 } },
      12_345,
    );
    expect(stub).toBe(
      '[cleared to save context: output of mcp_tool (error), 12,345 tokens; recall {"tool_result": "x1"} reads it back]',
    );
  });
});
