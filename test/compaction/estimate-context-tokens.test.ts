import { describe, expect, it } from "vitest";
import { estimateContextTokens, estimateMessageTokens, estimateTokens } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";

describe("estimateContextTokens", () => {
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: "read src/index.ts please" }] },
    {
      role: "assistant",
      content: [{ type: "tool-call", id: "c1", name: "read", arguments: { path: "src/index.ts" } }],
      provider: "p",
      api: "openai-chat",
      model: "m",
      stopReason: "tool-use",
    },
  ];

  it("adds the compaction summary to the sum of the messages", () => {
    const messagesOnly = messages.reduce((total, message) => total + estimateMessageTokens(message), 0);
    expect(estimateContextTokens({ messages })).toBe(messagesOnly);
    const summary = "the user is fixing the parser";
    expect(estimateContextTokens({ compaction: { type: "compaction", summary }, messages })).toBe(
      messagesOnly + estimateTokens(summary),
    );
  });

  it("is zero for an empty context", () => {
    expect(estimateContextTokens({ messages: [] })).toBe(0);
  });
});
