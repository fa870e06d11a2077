import { describe, expect, it } from "vitest";
import { effectiveKeepBudget, overheadFromUsage } from "../../src/agent/window-guard.js";
import type { AssistantMessage, EffectiveContext, Message } from "../../src/core/index.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (promptTokens: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  provider: "anthropic",
  api: "anthropic-messages",
  model: "m",
  stopReason: "stop",
  usage: { promptTokens, outputTokens: 20, resentOutputTokens: 20 },
});

/**
 * After a compaction: one kept turn, copied with the usage of the 150k-token request it was first
 * answered in, then a turn answered in this context (4k tokens, mostly the 3k of overhead).
 */
const context: EffectiveContext = {
  compaction: { type: "compaction", summary: "The summary." },
  messages: [user("kept question"), answer(150_000), user("new question"), answer(4_000)],
};

describe("the overhead measured from usage after a compaction", () => {
  it("passes over the kept copies' usage, which measured the longer context they came from", () => {
    const withCopies = overheadFromUsage(context, 3_000, "anthropic/m", 2);
    const naive = overheadFromUsage(context, 3_000, "anthropic/m");
    // The copy's 150k prompt would make the overhead look about 150k: most of a 200k window.
    expect(naive).toBeGreaterThan(100_000);
    expect(withCopies).toBeDefined();
    expect(withCopies).toBeLessThanOrEqual(4_000);
  });

  it("so the room a 200k window leaves for kept turns stays most of the window", () => {
    const window = { contextWindow: 200_000 };
    const room = effectiveKeepBudget(Number.POSITIVE_INFINITY, window, 3_000, context, "anthropic/m", 2);
    const shrunk = effectiveKeepBudget(Number.POSITIVE_INFINITY, window, 3_000, context, "anthropic/m");
    expect(room).toBeGreaterThan(150_000);
    expect(shrunk).toBeLessThan(room - 100_000);
  });
});
