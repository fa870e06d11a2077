import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateMessageTokens, estimateTokens, IMAGE_TOKEN_ESTIMATE } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";
import { TOKEN_SAMPLES } from "./token-samples.js";

describe("estimateTokens", () => {
  it.each(TOKEN_SAMPLES)(
    "reaches the published count and stays within 3x of it: $kind ($source)",
    (sample) => {
      const estimate = estimateTokens(sample.text);
      expect(estimate).toBeGreaterThanOrEqual(sample.reference);
      expect(estimate).toBeLessThanOrEqual(3 * sample.smallest);
    },
  );

  it("charges at least one token per CJK character", () => {
    const text = "我可以吞下玻璃而不伤身体お誕生日おめでとう안녕하세요";
    expect(estimateTokens(text)).toBeGreaterThanOrEqual([...text].length);
  });

  it("charges minified JSON at least one token per punctuation mark", () => {
    const json = JSON.stringify({ a: 1, b: [1, 2, 3], c: { d: "x" } });
    const punctuation = json.replace(/[A-Za-z0-9]/g, "").length;
    expect(estimateTokens(json)).toBeGreaterThanOrEqual(punctuation);
  });

  it("is zero for the empty string and never shrinks when text is appended (monotonic)", () => {
    expect(estimateTokens("")).toBe(0);
    const text = fc.string({ unit: "binary", maxLength: 200 });
    fc.assert(
      fc.property(text, text, (head, tail) => {
        expect(estimateTokens(head + tail)).toBeGreaterThanOrEqual(estimateTokens(head));
      }),
    );
  });

  it("treats a camelCase hump as a new word", () => {
    expect(estimateTokens("estimateMessageTokens")).toBeGreaterThan(estimateTokens("estimatemessagetokens"));
  });
});

describe("estimateMessageTokens", () => {
  it("charges every block kind: text, thinking, tool call name and arguments, tool results, images", () => {
    const assistant: Message = {
      role: "assistant",
      provider: "anthropic",
      api: "anthropic-messages",
      model: "claude",
      stopReason: "tool-use",
      content: [
        { type: "thinking", text: "I should read the file first." },
        { type: "text", text: "Reading it." },
        { type: "tool-call", id: "t1", name: "read_file", arguments: { path: "src/compaction/index.ts" } },
      ],
    };
    const textOnly = estimateTokens("I should read the file first.") + estimateTokens("Reading it.");
    const argumentsCost = estimateTokens(JSON.stringify({ path: "src/compaction/index.ts" }));
    expect(estimateMessageTokens(assistant)).toBeGreaterThan(textOnly + argumentsCost);

    const tool: Message = {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "t1",
          toolName: "read_file",
          isError: false,
          content: [
            { type: "text", text: "export {};" },
            { type: "image", mediaType: "image/png", data: "AAAA" },
          ],
        },
      ],
    };
    expect(estimateMessageTokens(tool)).toBeGreaterThan(IMAGE_TOKEN_ESTIMATE + estimateTokens("export {};"));

    const user: Message = {
      role: "user",
      content: [
        { type: "text", text: "what is in this screenshot?" },
        { type: "image", mediaType: "image/jpeg", data: "AAAA" },
      ],
    };
    expect(estimateMessageTokens(user)).toBeGreaterThanOrEqual(
      IMAGE_TOKEN_ESTIMATE + estimateTokens("what is in this screenshot?"),
    );
  });

  it("counts redacted thinking, which is sent back to the provider", () => {
    const base = {
      role: "assistant" as const,
      provider: "anthropic",
      api: "anthropic-messages" as const,
      model: "claude",
      stopReason: "stop" as const,
    };
    const plain = estimateMessageTokens({ ...base, content: [{ type: "thinking", text: "" }] });
    const redacted = estimateMessageTokens({
      ...base,
      content: [{ type: "thinking", text: "", redacted: "EqQBCkgIARABGAIiQL".repeat(10) }],
    });
    expect(redacted).toBeGreaterThan(plain);
  });
});
