import { describe, expect, it } from "vitest";
import { warmRunRequests } from "../../src/agent/context-clearing.js";
import type { Message } from "../../src/core/index.js";
import type { MessageEntry, SessionEntry } from "../../src/session/index.js";

const START = Date.parse("2026-01-01T12:00:00Z");
const TTL = 300_000;

function entry(seconds: number, role: "user" | "assistant", extra: Partial<MessageEntry> = {}): SessionEntry {
  const message: Message =
    role === "user"
      ? { role: "user", content: [{ type: "text", text: "go" }] }
      : {
          role: "assistant",
          content: [{ type: "text", text: "done" }],
          provider: "fake",
          api: "anthropic-messages",
          model: "m",
          stopReason: "stop",
        };
  return {
    type: "message",
    id: `e${seconds}${role}`,
    ts: new Date(START + seconds * 1000).toISOString(),
    message,
    ...extra,
  };
}

describe("warmRunRequests: how long the prompt cache stays warm in this session", () => {
  it("is undefined while no pause between answers outlasted the cache", () => {
    const entries = [entry(0, "user"), entry(10, "assistant"), entry(200, "user"), entry(290, "assistant")];
    expect(warmRunRequests(entries, TTL)).toBeUndefined();
  });

  it("averages the answers per pause longer than the cache lives, ignoring user messages and kept copies", () => {
    const entries = [
      entry(0, "assistant"),
      entry(60, "assistant"),
      // A kept copy carries its original time: it is not a request of this run.
      entry(61, "assistant", { keptBy: "c1" }),
      entry(700, "user"),
      entry(710, "assistant"), // 650 s after the previous answer: one cold pause
      entry(720, "assistant"),
      entry(2_000, "assistant"), // another
      entry(2_010, "assistant"),
    ];
    // Six answers over two pauses.
    expect(warmRunRequests(entries, TTL)).toBe(3);
  });
});
