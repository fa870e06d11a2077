import { describe, expect, it } from "vitest";
import { estimateMessageTokens, groupTurns, sizeMessages, sizeTurns } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";
import { assistant, call, image, results, usage, user } from "./builders.js";

/**
 * Two turns whose usage is coherent: the system prompt is 1000 tokens, the first user message 50,
 * the tool call re-sends 30, the tool result is 200, the answer re-sends 40, the second user
 * message is 60 and its answer re-sends 25.
 */
function coherentSession(overrides: { answer?: Message; secondPrompt?: number } = {}): Message[] {
  return [
    user("Fix the failing test in src/a.ts"),
    assistant([call("c1", "read_file", { path: "src/a.ts" })], { usage: usage(1050, 30) }),
    results({ id: "c1", name: "read_file", text: "export const a = 1;\n".repeat(10) }),
    overrides.answer ?? assistant("Fixed: the constant was wrong.", { usage: usage(1280, 40) }),
    user("Thanks. Now update the changelog with a short entry about it."),
    assistant("Done.", { usage: usage(overrides.secondPrompt ?? 1380, 25) }),
  ];
}

describe("sizeMessages", () => {
  it("sizes assistant messages by re-sent output and the material between them by prompt deltas", () => {
    const messages = coherentSession();
    expect(sizeMessages(messages)).toEqual([
      { tokens: estimateMessageTokens(messages[0] as Message), source: "estimate" },
      { tokens: 30, source: "usage" },
      { tokens: 200, source: "usage" },
      { tokens: 40, source: "usage" },
      { tokens: 60, source: "usage" },
      { tokens: 25, source: "usage" },
    ]);
  });

  it("falls back to the estimate around a message without usage", () => {
    const messages = coherentSession({ answer: assistant("Fixed: the constant was wrong.") });
    const sizes = sizeMessages(messages);
    expect(sizes.map((size) => size.source)).toEqual([
      "estimate",
      "usage",
      "estimate",
      "estimate",
      "estimate",
      "usage",
    ]);
    expect(sizes[2]?.tokens).toBe(estimateMessageTokens(messages[2] as Message));
  });

  it("falls back to the estimate when the model changes between two responses", () => {
    const messages = coherentSession({
      answer: assistant("Fixed: the constant was wrong.", { usage: usage(1280, 40), model: "gpt-5" }),
    });
    expect(sizeMessages(messages).map((size) => size.source)).toEqual([
      "estimate",
      "usage",
      "estimate",
      "usage",
      "estimate",
      "usage",
    ]);
  });

  it("ignores the usage of an aborted or failed response", () => {
    const messages = coherentSession({
      answer: assistant("Fixed: the const", { usage: usage(1280, 40), stopReason: "aborted" }),
    });
    expect(sizeMessages(messages)[3]?.source).toBe("estimate");
    expect(sizeMessages(messages)[2]?.source).toBe("estimate");
  });

  it("treats a negative or implausibly small delta as incoherent (a compaction in between)", () => {
    const negative = sizeMessages(coherentSession({ secondPrompt: 900 }));
    expect(negative[4]?.source).toBe("estimate");
    const tooSmall = coherentSession({ secondPrompt: 1280 + 40 + 1 });
    expect(sizeMessages(tooSmall)[4]).toEqual({
      tokens: estimateMessageTokens(tooSmall[4] as Message),
      source: "estimate",
    });
  });

  it("treats kept copies whose usage came from the longer pre-compaction context as incoherent", () => {
    const messages = [
      user("old question, kept verbatim"),
      assistant("old answer", { usage: usage(150_000, 20) }),
      user("a new question after the compaction"),
      assistant("new answer", { usage: usage(4_000, 10) }),
    ];
    expect(sizeMessages(messages)[2]?.source).toBe("estimate");
  });

  it("does not let an image's fixed charge make a small usage delta look wrong", () => {
    const messages = [
      user("first"),
      assistant("ok", { usage: usage(100, 5) }),
      user("what is in this screenshot?", image()),
      assistant("a login form", { usage: usage(100 + 5 + 300, 5) }),
    ];
    expect(sizeMessages(messages)[2]).toEqual({ tokens: 300, source: "usage" });
  });

  it("uses the estimate for material that straddles a turn boundary (a turn ending in tool results)", () => {
    const messages = [
      user("run it"),
      assistant([call("c1", "bash", { command: "make" })], { usage: usage(100, 10) }),
      results({ id: "c1", name: "bash", text: "interrupted" }),
      user("stop, do something else"),
      assistant("ok", { usage: usage(400, 5) }),
    ];
    const sizes = sizeMessages(messages);
    expect(sizes[2]?.source).toBe("estimate");
    expect(sizes[3]?.source).toBe("estimate");
  });
});

describe("sizeTurns", () => {
  it("marks a turn usage-sized only when every message in it is", () => {
    const sized = sizeTurns(groupTurns(coherentSession()));
    const first = estimateMessageTokens(coherentSession()[0] as Message);
    expect(sized.map((turn) => [turn.tokens, turn.source])).toEqual([
      [first + 30 + 200 + 40, "estimate"],
      [85, "usage"],
    ]);
  });

  it("sizes everything by estimate when no usage exists, never below zero", () => {
    const sized = sizeTurns(groupTurns([user("a"), assistant("b"), user("c")]));
    expect(sized.every((turn) => turn.source === "estimate" && turn.tokens > 0)).toBe(true);
  });
});
