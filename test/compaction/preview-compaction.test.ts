import { describe, expect, it } from "vitest";
import { previewCompaction, runCompaction } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (text: string): Message => ({
  role: "assistant",
  provider: "p",
  api: "openai-chat",
  model: "m",
  stopReason: "stop",
  content: [{ type: "text", text }],
});
const messages = [
  user(`first ${"word ".repeat(400)}`),
  answer("ok"),
  user("second"),
  answer("ok"),
  user("third"),
  answer("ok"),
];

describe("previewCompaction", () => {
  it("plans exactly what runCompaction then does, without a model call", async () => {
    const input = {
      context: { compaction: { type: "compaction" as const, summary: "EARLIER" }, messages },
      budgetTokens: 50,
      systemPrompt: "SUMMARISE",
      activeModel: "p/big",
      compactionModel: "p/small",
      instructions: "keep numbers",
    };
    const preview = previewCompaction(input);
    expect(preview.turns.map((turn) => [turn.position, turn.action, turn.userText])).toEqual([
      [1, "summarise", expect.stringMatching(/^first word word/)],
      [2, "keep", "second"],
      [3, "keep", "third"],
    ]);
    expect(preview).toMatchObject({ model: "p/small", fallbackModel: "p/big", instructions: "keep numbers" });
    expect(preview.turns[0]?.userText.length).toBeLessThanOrEqual(60);

    let requestChars = 0;
    const outcome = await runCompaction({
      ...input,
      trigger: "manual",
      lastTurnInFlight: false,
      summarise: async (_model, request) => {
        requestChars = request.systemPrompt.length + request.userPrompt.length;
        return { text: "S" };
      },
    });
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    expect(preview.turnsSummarised).toBe(outcome.record.turnsSummarised);
    expect(preview.turnsKept).toBe(outcome.record.turnsKept);
    expect(preview.tokensSummarised).toBe(outcome.record.tokensSummarised);
    expect(preview.tokensKept).toBe(outcome.record.tokensKept);
    expect(preview.sizeSources).toEqual(outcome.record.sizeSources);
    // The estimate errs large: never below a quarter of the request's characters.
    expect(preview.requestTokens).toBeGreaterThanOrEqual(Math.floor(requestChars / 4));
  });

  it("says why nothing would be summarised, and measures no request", () => {
    const preview = previewCompaction({
      context: { messages },
      budgetTokens: 100_000,
      systemPrompt: "S",
      activeModel: "p/m",
    });
    expect(preview.turnsSummarised).toBe(0);
    expect(preview.requestTokens).toBe(0);
    expect(preview.nothingReason).toContain("fits the keep-verbatim budget of 100000 tokens");
    expect(preview.fallbackModel).toBeUndefined();
  });
});
