import { describe, expect, it } from "vitest";
import { parseSessionLine } from "../../src/session/index.js";

const line = (message: unknown): string => JSON.stringify({ type: "message", id: "m1", ts: "t", message });

describe("parseSessionLine on message entries", () => {
  it("accepts every block type a role may hold, with their optional fields", () => {
    const parsed = [
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "image", mediaType: "image/png", data: "AA" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "thinking", text: "", signature: "s", redacted: "r" },
          { type: "tool-call", id: "c", name: "bash", arguments: {} },
        ],
        provider: "p",
        api: "openai-chat",
        model: "m",
        stopReason: "tool-use",
      },
      {
        role: "tool",
        content: [{ type: "tool-result", toolCallId: "c", toolName: "bash", content: [], isError: false }],
      },
    ].map((message) => parseSessionLine(line(message)).kind);
    expect(parsed).toEqual(["entry", "entry", "entry"]);
  });

  it.each([
    [
      "a role that names an Object.prototype member (fuzz find)",
      { role: "constructor", content: [] },
      "message has no known role",
    ],
    [
      "a block its role may not hold",
      { role: "user", content: [{ type: "tool-call", id: "c", name: "n", arguments: {} }] },
      "content item 1 is a tool-call block",
    ],
    [
      "a thinking signature that is not text",
      { role: "assistant", content: [{ type: "thinking", text: "", signature: 1 }] },
      "content item 1 is a thinking block whose signature is not text",
    ],
    [
      "tool-call arguments that are a list",
      { role: "assistant", content: [{ type: "tool-call", id: "c", name: "n", arguments: [] }] },
      "content item 1 is a tool-call block whose arguments are not an object",
    ],
    [
      "a result holding a tool call",
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c",
            toolName: "n",
            isError: true,
            content: [{ type: "tool-call" }],
          },
        ],
      },
      "content item 1 is a tool-result block holding a tool-call block",
    ],
  ])("reports %s, naming the block", (_name, message, reason) => {
    expect(parseSessionLine(line(message))).toEqual({
      kind: "invalid",
      reason: `message entry whose ${reason}`,
      json: true,
    });
  });
});
