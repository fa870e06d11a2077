import { describe, expect, it } from "vitest";
import { sumSessionUsage } from "../../src/session/index.js";

function assistant(
  model: string,
  usage: Record<string, number>,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    type: "message",
    id: "m",
    ts: "t",
    ...extra,
    message: {
      role: "assistant",
      provider: "p",
      api: "openai-chat",
      model,
      content: [],
      stopReason: "stop",
      usage,
    },
  });
}

describe("sumSessionUsage", () => {
  it("counts each request once: kept copies and edited compactions add nothing; input excludes cached tokens", () => {
    const lines = [
      JSON.stringify({ type: "session", version: 1, id: "s", created: "t", cwd: "/" }),
      assistant("m1", {
        promptTokens: 1000,
        outputTokens: 50,
        resentOutputTokens: 50,
        cacheReadTokens: 600,
        cacheWriteTokens: 100,
      }),
      JSON.stringify({
        type: "compaction",
        id: "c1",
        trigger: "manual",
        usage: [
          { model: "p/small", promptTokens: 800, outputTokens: 90, resentOutputTokens: 90 },
          { model: "p/m1", promptTokens: 700, outputTokens: 10, resentOutputTokens: 10 },
        ],
      }),
      assistant("m1", { promptTokens: 1000, outputTokens: 50, resentOutputTokens: 50 }, { keptBy: "c1" }),
      JSON.stringify({
        type: "compaction",
        id: "c2",
        trigger: "edited",
        usage: [{ model: "p/small", promptTokens: 800, outputTokens: 90 }],
      }),
      assistant("m2", { promptTokens: 40, outputTokens: 4, resentOutputTokens: 4 }),
      '{"type":"message","usage": truncated',
    ];
    expect(sumSessionUsage(lines.join("\n"))).toEqual({
      chat: {
        "p/m1": { input: 300, output: 50, cacheRead: 600, cacheWrite: 100 },
        "p/m2": { input: 40, output: 4, cacheRead: 0, cacheWrite: 0 },
      },
      compaction: {
        "p/small": { input: 800, output: 90, cacheRead: 0, cacheWrite: 0 },
        "p/m1": { input: 700, output: 10, cacheRead: 0, cacheWrite: 0 },
      },
    });
  });
});
