import { describe, expect, it } from "vitest";
import { anthropicProtocolProblems } from "./anthropic-protocol-problems.js";

const text = (value: string) => ({ type: "text", text: value });
const use = (id: string) => ({ type: "tool_use", id, name: "read", input: {} });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id });
const body = (...messages: Array<[string, Array<Record<string, unknown>>]>) => ({
  messages: messages.map(([role, content]) => ({ role, content })),
});

describe("the Anthropic request check used after each crash", () => {
  it("accepts alternating roles with every tool_use answered first thing in the next user message", () => {
    const valid = body(
      ["user", [text("hi")]],
      ["assistant", [text("reading"), use("a"), use("b")]],
      ["user", [result("b"), result("a"), text("next")]],
    );
    expect(anthropicProtocolProblems(valid)).toEqual([]);
  });

  it("names a tool_use without its result, an orphan result, a repeated result and results after text", () => {
    expect(
      anthropicProtocolProblems(
        body(
          ["user", [result("z")]],
          ["assistant", [use("a"), use("b")]],
          ["user", [text("oops"), result("a"), result("a")]],
        ),
      ),
    ).toEqual([
      "message 0: tool_result z answers no tool_use before it",
      "message 2: tool_use b has no tool_result",
      "message 2: tool_result a repeated",
      "message 2: tool_result blocks do not come first",
    ]);
  });

  it("names roles that do not alternate, a bad role, a reused tool id and a request not ending with the user", () => {
    expect(
      anthropicProtocolProblems(
        body(
          ["user", [text("a")]],
          ["user", [text("b")]],
          ["system", [text("c")]],
          ["assistant", [use("x")]],
          ["user", [result("x")]],
          ["assistant", [use("x")]],
        ),
      ),
    ).toEqual([
      "the last message is not the user's",
      "message 1: two user messages in a row",
      "message 2: role system",
      "message 5: tool_use id x used twice",
    ]);
  });
});
