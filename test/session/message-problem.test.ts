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
          { type: "image", mediaType: "image/png", file: "a.png", name: "shot.png" },
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
      "an image that holds neither its bytes nor the name of its stored file",
      { role: "user", content: [{ type: "image", mediaType: "image/png" }] },
      "content item 1 is an image block with neither data nor file",
    ],
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

describe("parseSessionLine on compaction entries", () => {
  const compaction = (fields: Record<string, unknown>): string =>
    JSON.stringify({ type: "compaction", id: "c1", ts: "t", summary: "s", trigger: "manual", ...fields });

  it("accepts pins and restored facts that are lists of notes and facts", () => {
    const line = compaction({
      pins: [{ id: "p", text: "keep" }],
      restored: [{ kind: "path", text: "a.ts" }],
    });
    expect(parseSessionLine(line).kind).toBe("entry");
  });

  it.each([
    [
      "no trigger (the export named its marker from it)",
      { trigger: undefined },
      "compaction entry without a trigger",
    ],
    [
      "pins that are a number (replay spread them; a fuzz find)",
      { pins: 2 },
      "compaction entry whose pins are not a list of notes",
    ],
    ["a pin without text", { pins: [{ id: "p" }] }, "compaction entry whose pins are not a list of notes"],
    [
      "restored facts that are not facts",
      { restored: ["a.ts"] },
      "compaction entry whose restored facts are not a list of facts",
    ],
    [
      "a task list item without a status (replay composes the block from it)",
      { todos: [{ content: "Fix the parser" }] },
      "compaction entry whose todos are not a list of task list items",
    ],
    [
      "a task list item with a status panto does not know",
      { todos: [{ content: "Fix the parser", status: "done" }] },
      "compaction entry whose todos are not a list of task list items",
    ],
  ])("reports %s", (_name, fields, reason) => {
    expect(parseSessionLine(compaction(fields))).toEqual({ kind: "invalid", reason, json: true });
  });
});
