import { describe, expect, it } from "vitest";
import { inFlightMisfit } from "../../src/agent/window-guard.js";
import type { AssistantMessage, EffectiveContext, Message } from "../../src/core/index.js";

const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (promptTokens: number): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  provider: "local",
  api: "openai-chat",
  model: "m",
  stopReason: "stop",
  usage: { promptTokens, outputTokens: 2, resentOutputTokens: 2 },
});

describe("inFlightMisfit (refusing before any summary request)", () => {
  // The estimate of panto's overhead (system prompt, tool definitions) is 2,400 tokens, but the
  // server reported 1,300-token prompts for requests made of it: the estimate overrates JSON.
  const overheadTokens = 2_400;
  const context: EffectiveContext = {
    messages: [user("hi"), answer(1_300), user("and now this question")],
  };

  it("sizes the overhead from the session's usage, so a 2,048-token window the server already served is not refused", () => {
    expect(
      inFlightMisfit({ model: "local/m", window: { contextWindow: 2_048 }, overheadTokens, context }),
    ).toBeUndefined();
  });

  it("still refuses, with no model call, when even the usage-sized overhead cannot fit the window", () => {
    const error = inFlightMisfit({
      model: "local/m",
      window: { contextWindow: 1_000 },
      overheadTokens,
      context,
    });
    expect(error?.code).toBe("context_overflow");
    expect(error?.message).toMatch(
      /fixed overhead .* alone comes to about 1\d{3} tokens, more than local\/m's context window of 1000/,
    );
  });

  it("takes the estimate as the provider's count when there is no usage and no ratio from the overflow", () => {
    const error = inFlightMisfit({
      model: "local/m",
      window: { contextWindow: 2_048 },
      overheadTokens,
      context: { messages: [user("hi")] },
    });
    expect(error?.message).toContain("alone comes to about 2400 tokens");
  });
});
