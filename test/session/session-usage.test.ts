import { describe, expect, it } from "vitest";
import { priceOf } from "../../src/runtime/commands/describe-cost.js";
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

describe("the one-hour cache's writes", () => {
  it("are counted apart within the cache writes, and priced with their own price or not at all", () => {
    const lines = [
      assistant("m1", {
        promptTokens: 1000,
        outputTokens: 10,
        resentOutputTokens: 10,
        cacheReadTokens: 200,
        cacheWriteTokens: 700,
        longCacheWriteTokens: 300,
      }),
      assistant("m1", { promptTokens: 500, outputTokens: 10, resentOutputTokens: 10, cacheWriteTokens: 400 }),
    ];
    const counts = sumSessionUsage(lines.join("\n")).chat["p/m1"];
    expect(counts).toEqual({ input: 200, output: 20, cacheRead: 200, cacheWrite: 1100, longCacheWrite: 300 });
    if (counts === undefined) return;
    const price = {
      input_per_mtok: 3,
      output_per_mtok: 15,
      cache_read_per_mtok: 0.3,
      cache_write_per_mtok: 3.75,
    };
    // 200 input, 20 output, 200 read, 800 five-minute writes and 300 one-hour writes.
    const expected = (200 * 3 + 20 * 15 + 200 * 0.3 + 800 * 3.75 + 300 * 6) / 1_000_000;
    expect(priceOf(counts, { ...price, cache_write_1h_per_mtok: 6 })).toBeCloseTo(expected, 12);
    // Nothing is guessed: without the one-hour price there is no cost.
    expect(priceOf(counts, price)).toBeUndefined();
    const { longCacheWrite: _, ...fiveMinutesOnly } = counts;
    expect(priceOf(fiveMinutesOnly, price)).toBeCloseTo(
      (200 * 3 + 20 * 15 + 200 * 0.3 + 1100 * 3.75) / 1_000_000,
      12,
    );
  });
});

describe("readSessionUsage", () => {
  it("read the file in chunks: lines longer than a chunk, a usage line at the very end without a newline, and 'usage' inside tool output all come out as sumSessionUsage says", async () => {
    const { mkdtemp, writeFile } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { readSessionUsage } = await import("../../src/session/index.js");
    const toolOutput = JSON.stringify({
      type: "message",
      id: "t",
      ts: "t",
      message: { role: "tool", content: [{ type: "tool-result", text: `"usage" ${"x".repeat(9_000_000)}` }] },
    });
    const usage = { promptTokens: 10, outputTokens: 2, resentOutputTokens: 2 };
    const text = [
      JSON.stringify({ type: "session", version: 1, id: "s", created: "t", cwd: "/" }),
      assistant("big", { ...usage }, { pad: "y".repeat(5_000_000) }),
      toolOutput,
      assistant("small", { ...usage, promptTokens: 7 }),
      assistant("last", { ...usage, promptTokens: 3 }),
    ].join("\n");
    const path = join(await mkdtemp(join(tmpdir(), "panto-usage-")), "s.jsonl");
    await writeFile(path, text);
    const expected = sumSessionUsage(text);
    expect(Object.keys(expected.chat).sort()).toEqual(["p/big", "p/last", "p/small"]);
    expect(await readSessionUsage(path)).toEqual(expected);
    expect(await readSessionUsage(join(path, "..", "missing.jsonl"))).toEqual({ chat: {}, compaction: {} });
  });
});
