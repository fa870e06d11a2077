import { describe, expect, it } from "vitest";
import { truncationWarning } from "../../src/agent/truncation-check.js";
import type { AssistantMessage } from "../../src/core/index.js";

const answer = (promptTokens: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  provider: "ollama",
  api: "openai-chat",
  model: "qwen",
  stopReason: "stop",
  usage: { promptTokens, outputTokens: 10, resentOutputTokens: 10 },
});
const accepted = (promptTokens: number) => ({ promptTokens, resentOutputTokens: 10, between: [], after: [] });

describe("truncationWarning (silent truncation, from the provider's numbers only)", () => {
  it("warns when the reported prompt is exactly the server's reported context size", () => {
    expect(truncationWarning(answer(2048), { serverWindow: 2048 })).toMatch(
      /reported a prompt of 2048 tokens, exactly its context size of 2048 tokens/,
    );
    expect(truncationWarning(answer(2047), { serverWindow: 2048 })).toBeUndefined();
  });

  it("takes a prompt at half the context size for a cut one only when it stays there", () => {
    expect(truncationWarning(answer(1024), { serverWindow: 2048 })).toBeUndefined();
    expect(truncationWarning(answer(1024), { serverWindow: 2048, accepted: accepted(1024) })).toMatch(
      /no more than the 1024 it reported for an earlier request although the conversation only grew since, half its context size of 2048 tokens/,
    );
  });

  it("warns when the prompt did not grow past an earlier one on the same context", () => {
    expect(truncationWarning(answer(4000), { accepted: accepted(4000) })).toMatch(
      /no more than the 4000 it reported for an earlier request/,
    );
    expect(truncationWarning(answer(3900), { accepted: accepted(4000) })).toMatch(
      /Raise the server's context size/,
    );
    expect(truncationWarning(answer(4001), { accepted: accepted(4000) })).toBeUndefined();
  });

  it("never warns from the size alone, however far it is from panto's estimate", () => {
    // A server that counts a tenth of what panto estimates, with no earlier request to compare.
    expect(truncationWarning(answer(300), {})).toBeUndefined();
    const { usage: _none, ...withoutUsage } = answer(0);
    expect(truncationWarning(withoutUsage, { serverWindow: 2048 })).toBeUndefined();
  });
});
