import { describe, expect, it } from "vitest";
import { estimateMessageTokens, estimateTokens, IMAGE_TOKEN_ESTIMATE } from "../../src/compaction/index.js";
import type { Message } from "../../src/core/index.js";

/**
 * Measurement table for the local estimate. No tokeniser runs offline here, so every reference is
 * a count published next to its tokeniser output:
 * - OpenAI cookbook "How to count tokens with tiktoken" (compare_encodings): exact counts for
 *   gpt2 and cl100k_base;
 * - microsoft/vscode-copilot-chat tokenizer tests: exact cl100k_base token ids;
 * - tiktoken ports' tests (Swift TokenEncoder, tinybpe, tiktoken-rs docs): exact cl100k_base ids;
 * - a GPT-2 BPE port's README (ChatGPTTokenizer) for a one-line Python call;
 * - lillytechsystems "Token Counting" guide: approximate o200k_base counts ("~") for pretty-printed
 *   JSON and a Python function, the only published JSON figure found.
 * `reference` is the largest published count across tokenisers (what the estimate must reach) and
 * `smallest` the smallest one (what "not absurdly large" is measured against).
 */
const SAMPLES: ReadonlyArray<{
  kind: string;
  text: string;
  reference: number;
  smallest: number;
  source: string;
}> = [
  { kind: "prose", text: "This is some text", reference: 4, smallest: 4, source: "copilot cl100k" },
  {
    kind: "prose",
    text: "The quick brown fox jumps over the lazy dog",
    reference: 9,
    smallest: 9,
    source: "Swift TokenEncoder cl100k",
  },
  { kind: "prose", text: "tiktoken is great!", reference: 6, smallest: 6, source: "cookbook cl100k" },
  { kind: "prose", text: "Hello, world!", reference: 4, smallest: 4, source: "tiktoken-rs cl100k" },
  {
    kind: "prose",
    text: "antidisestablishmentarianism",
    reference: 6,
    smallest: 5,
    source: "cookbook cl100k 6, gpt2 5",
  },
  { kind: "prose", text: "indivisible", reference: 3, smallest: 3, source: "copilot cl100k" },
  {
    kind: "code",
    text: '"""\nThis is an example Python source file to use as test data.  It\'s pulled from the synth repo\nwith minor edits to make it',
    reference: 29,
    smallest: 29,
    source: "copilot cl100k",
  },
  {
    kind: "code",
    text: '"To the import {imp.module} as {imp.as_name}, we add the following comment: {description}")\n        return description',
    reference: 25,
    smallest: 25,
    source: "copilot cl100k",
  },
  { kind: "code", text: 'print("Hello world!")', reference: 6, smallest: 6, source: "ChatGPTTokenizer gpt2" },
  { kind: "code", text: "2 + 2 = 4", reference: 7, smallest: 5, source: "cookbook cl100k 7, gpt2 5" },
  {
    kind: "code",
    text: "def factorial(n):\n    if n <= 1:\n        return 1\n    return n * factorial(n - 1)",
    reference: 25,
    smallest: 25,
    source: "lillytech o200k (~)",
  },
  {
    kind: "json",
    text: '{\n  "name": "John Doe",\n  "age": 30,\n  "email": "john@example.com",\n  "active": true\n}',
    reference: 35,
    smallest: 35,
    source: "lillytech o200k (~)",
  },
  {
    kind: "cjk",
    text: "お誕生日おめでとう",
    reference: 14,
    smallest: 9,
    source: "cookbook gpt2 14, cl100k 9",
  },
  {
    kind: "cjk",
    text: "我可以吞下玻璃而不伤身体",
    reference: 16,
    smallest: 16,
    source: "Swift TokenEncoder cl100k",
  },
  {
    kind: "mixed",
    text: "👋 Hello, this is an example. 你好，这是一个例子。😁",
    reference: 22,
    smallest: 22,
    source: "tinybpe cl100k",
  },
  {
    kind: "emoji",
    text: "hello 👋 world 🌍",
    reference: 7,
    smallest: 6,
    source: "copilot cl100k 7, o200k 6",
  },
];

describe("estimateTokens", () => {
  it.each(SAMPLES)("reaches the published count and stays within 3x of it: $kind ($source)", (sample) => {
    const estimate = estimateTokens(sample.text);
    expect(estimate).toBeGreaterThanOrEqual(sample.reference);
    expect(estimate).toBeLessThanOrEqual(3 * sample.smallest);
  });

  it("charges at least one token per CJK character", () => {
    const text = "我可以吞下玻璃而不伤身体お誕生日おめでとう안녕하세요";
    expect(estimateTokens(text)).toBeGreaterThanOrEqual([...text].length);
  });

  it("charges minified JSON at least one token per punctuation mark", () => {
    const json = JSON.stringify({ a: 1, b: [1, 2, 3], c: { d: "x" } });
    const punctuation = json.replace(/[A-Za-z0-9]/g, "").length;
    expect(estimateTokens(json)).toBeGreaterThanOrEqual(punctuation);
  });

  it("is zero for the empty string and grows with the text (monotonic over appends)", () => {
    expect(estimateTokens("")).toBe(0);
    let previous = 0;
    for (const piece of ["fix", " the", " bug", " in", " src/a.ts", "\n", "  ", "错误", "😀"]) {
      const next = estimateTokens(`${"x".repeat(previous)}${piece}`);
      expect(next).toBeGreaterThanOrEqual(estimateTokens("x".repeat(previous)));
      previous += 1;
    }
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
