import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateFloorUpperBound, estimateTokensUpperBound } from "../../src/compaction/estimate-bounds.js";
import {
  estimateMessageBreakdown,
  estimateMessageTokens,
  estimateTokens,
  groupTurns,
  type MessageSize,
  sizeMessages,
  sizeTurns,
} from "../../src/compaction/index.js";
import type { AssistantMessage, Message } from "../../src/core/index.js";
import { buildConversation, conversationSpec } from "./conversation-arbitrary.js";
import { looseMessages, messageText } from "./message-arbitrary.js";

/**
 * sizeMessages written the plain way: every message's estimate worked out first, then the usage
 * pass. sizeMessages works estimates out only where the outcome depends on them; the sizes must be
 * the same.
 */
function referenceSizes(messages: readonly Message[]): MessageSize[] {
  const estimates = messages.map((message) => estimateMessageBreakdown(message));
  const floors = estimates.map(
    (estimate) => estimate.tokens - estimate.imageTokens - estimate.thinkingTokens,
  );
  const sizes: MessageSize[] = estimates.map((estimate) => ({ tokens: estimate.tokens, source: "estimate" }));
  const plausible = (tokens: number, floor: number) => tokens > 0 && tokens * 5 >= floor;
  let previous: number | undefined;
  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const usage = usable(message);
    if (usage === undefined) {
      previous = undefined;
      return;
    }
    if (plausible(usage.resentOutputTokens, floors[index] ?? 0)) {
      sizes[index] = { tokens: usage.resentOutputTokens, source: "usage" };
    }
    if (previous !== undefined) {
      const before = messages[previous] as AssistantMessage;
      const gap = messages.slice(previous + 1, index);
      const beforeUsage = usable(before);
      const sameModel =
        before.provider === message.provider && before.model === message.model && before.api === message.api;
      if (
        gap.length > 0 &&
        sameModel &&
        beforeUsage !== undefined &&
        gap.slice(1).every((m) => m.role !== "user")
      ) {
        const delta = usage.promptTokens - beforeUsage.promptTokens - beforeUsage.resentOutputTokens;
        const gapFloor = floors.slice(previous + 1, index).reduce((total, floor) => total + floor, 0);
        if (plausible(delta, gapFloor)) {
          const gapEstimates = estimates.slice(previous + 1, index).map((estimate) => estimate.tokens);
          const gapEstimate = gapEstimates.reduce((total, estimate) => total + estimate, 0);
          let assigned = 0;
          gapEstimates.forEach((estimate, offset) => {
            const last = offset === gapEstimates.length - 1;
            const share = last ? delta - assigned : Math.round((delta * estimate) / gapEstimate);
            assigned += share;
            sizes[(previous as number) + 1 + offset] = { tokens: Math.max(0, share), source: "usage" };
          });
        }
      }
    }
    previous = index;
  });
  return sizes;
}

function usable(message: AssistantMessage): AssistantMessage["usage"] {
  const usage = message.usage;
  if (usage === undefined || message.stopReason === "error" || message.stopReason === "aborted")
    return undefined;
  const counts = [usage.promptTokens, usage.outputTokens, usage.resentOutputTokens];
  return counts.every((value) => Number.isFinite(value) && value >= 0) ? usage : undefined;
}

/**
 * Generated conversations whose usage a provider counting `ratio` tokens per estimated token would
 * report: ratios around the one fifth below which usage is implausible, so both the cheap bound and
 * the full estimate decide some of the checks.
 */
const conversationWithUsage = fc
  .record({ spec: conversationSpec, ratio: fc.constantFrom(0.05, 0.19, 0.2, 0.21, 0.25, 0.4, 0.6, 1.3) })
  .map(({ spec, ratio }) => {
    const { messages } = buildConversation(spec);
    let prompt = 1_000;
    for (const message of messages) {
      const tokens = Math.ceil(estimateMessageTokens(message) * ratio);
      if (message.role === "assistant") {
        message.usage = { promptTokens: prompt, outputTokens: tokens, resentOutputTokens: tokens };
      }
      prompt += tokens;
    }
    return messages;
  });

describe("sizeMessages against sizing with every estimate worked out first", () => {
  it("gives the same sizes and sources for coherent conversations near the plausibility limit", () => {
    fc.assert(
      fc.property(conversationWithUsage, (messages) => {
        expect(sizeMessages(messages)).toEqual(referenceSizes(messages));
      }),
      { numRuns: 300 },
    );
  });

  it("gives the same sizes and sources for random messages with random usage", () => {
    fc.assert(
      fc.property(looseMessages, (messages) => {
        expect(sizeMessages(messages)).toEqual(referenceSizes(messages));
      }),
      { numRuns: 500 },
    );
  });

  it("gives turns the sums of those sizes", () => {
    fc.assert(
      fc.property(conversationWithUsage, (messages) => {
        const reference = referenceSizes(messages);
        for (const turn of sizeTurns(groupTurns(messages))) {
          const parts = reference.slice(turn.start, turn.end);
          expect(turn.tokens).toBe(parts.reduce((total, size) => total + size.tokens, 0));
          expect(turn.source).toBe(parts.every((size) => size.source === "usage") ? "usage" : "estimate");
        }
      }),
      { numRuns: 100 },
    );
  });
});

/** Text built to cost the most a character: digits after spaces, lines, lone high surrogates. */
const costlyText = fc
  .array(fc.constantFrom(" 1", "\n 1", " ", "\n", "9", "\t", "\ud83d", "😀", "我", "é", "{", "a", "Ab"), {
    maxLength: 200,
  })
  .map((parts) => parts.join(""));

describe("the estimate bounds sizing checks first", () => {
  it("never fall below the estimate of a text", () => {
    fc.assert(
      fc.property(
        fc.oneof(costlyText, messageText, fc.string({ unit: "binary", maxLength: 200 })),
        (text) => {
          expect(estimateTokensUpperBound(text)).toBeGreaterThanOrEqual(estimateTokens(text));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reach 9/8 of a token a character on ASCII text that costs the most", () => {
    expect(estimateTokens(" 1".repeat(400))).toBe(801);
    expect(estimateTokensUpperBound(" 1".repeat(400))).toBe(900);
    expect(estimateTokens("\ud83d")).toBe(3);
    expect(estimateTokensUpperBound("\ud83d")).toBe(3);
  });

  it("never fall below a message's estimate without images and thinking", () => {
    fc.assert(
      fc.property(looseMessages, (messages) => {
        for (const message of messages) {
          const estimate = estimateMessageBreakdown(message);
          const floor = estimate.tokens - estimate.imageTokens - estimate.thinkingTokens;
          expect(estimateFloorUpperBound(message)).toBeGreaterThanOrEqual(floor);
        }
      }),
      { numRuns: 500 },
    );
  });
});
