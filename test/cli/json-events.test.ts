import { describe, expect, it } from "vitest";
import { toJsonEvent } from "../../src/cli/json/json-events.js";
import type { CompactionRecord } from "../../src/core/index.js";

const record: CompactionRecord = {
  summary: "## Goal\nfix the parser",
  trigger: "overflow",
  model: "anthropic/claude-haiku-4-5",
  fellBack: true,
  turnsSummarised: 12,
  turnsKept: 3,
  tokensSummarised: 32000,
  tokensKept: 9000,
  summaryTokens: 700,
  sizeSources: { usage: 10, estimate: 5 },
};

describe("toJsonEvent", () => {
  it("maps an assistant message with its usage to snake_case fields", () => {
    expect(
      toJsonEvent({
        type: "assistant-message",
        message: {
          role: "assistant",
          content: [
            { type: "thinking", text: "hmm" },
            { type: "text", text: "Hello " },
            { type: "text", text: "world" },
          ],
          provider: "anthropic",
          api: "anthropic-messages",
          model: "claude-sonnet-4-5",
          usage: { promptTokens: 120, outputTokens: 30, resentOutputTokens: 30, cacheReadTokens: 100 },
          stopReason: "tool-use",
        },
      }),
    ).toEqual({
      type: "assistant_message",
      text: "Hello world",
      stop_reason: "tool_use",
      model: "claude-sonnet-4-5",
      provider: "anthropic",
      usage: { prompt_tokens: 120, output_tokens: 30, cache_read_tokens: 100 },
    });
  });

  it("reports missing usage as null, never as zeros", () => {
    const event = toJsonEvent({
      type: "assistant-message",
      message: {
        role: "assistant",
        content: [],
        provider: "ollama",
        api: "openai-chat",
        model: "qwen",
        stopReason: "stop",
      },
    });
    expect(event?.usage).toBeNull();
  });

  it("maps a compaction with trigger, model, fallback, turn counts, sizes, duration and restored facts", () => {
    expect(
      toJsonEvent({
        type: "compaction",
        compactionId: "c1",
        record,
        tokensBefore: 41000,
        tokensAfter: 9700,
        durationMs: 1234,
      }),
    ).toEqual({
      type: "compaction",
      trigger: "overflow",
      model: "anthropic/claude-haiku-4-5",
      fallback: true,
      turns_summarised: 12,
      turns_kept: 3,
      tokens_summarised: 32000,
      tokens_kept: 9000,
      tokens_before: 41000,
      tokens_after: 9700,
      summary_tokens: 700,
      size_sources: { usage: 10, estimate: 5 },
      summary: "## Goal\nfix the parser",
      duration_ms: 1234,
      restored: [],
      unverified: [],
    });
    const restored = [{ kind: "path" as const, text: "src/a.ts" }];
    expect(
      toJsonEvent({
        type: "compaction",
        compactionId: "c2",
        record: {
          ...record,
          trigger: "manual",
          instructions: "keep bugs",
          restored,
          turns: { through: 12, kept: [13, 14, 15], total: 15 },
          ledger: {
            files: [{ path: "src/a.ts", changes: [{ change: "edited", turn: 12 }] }],
            commands: [{ command: "npm test", turn: 12, exitCode: 1, ending: "exit 1", error: "FAIL a" }],
            moreCommands: 2,
          },
          unverified: [{ claim: "Tests pass.", evidence: "the latest run of `npm test` (turn 12) exited 1" }],
        },
        tokensBefore: 1,
        tokensAfter: 1,
        durationMs: 5,
      }),
    ).toMatchObject({
      trigger: "manual",
      instructions: "keep bugs",
      restored: [{ kind: "path", text: "src/a.ts" }],
      through_turn: 12,
      ledger: {
        files: [{ path: "src/a.ts", changes: [{ change: "edited", turn: 12 }] }],
        commands: [{ command: "npm test", turn: 12, exit_code: 1, ending: "exit 1", error: "FAIL a" }],
        more_commands: 2,
      },
      unverified: [{ claim: "Tests pass.", evidence: "the latest run of `npm test` (turn 12) exited 1" }],
    });
    expect(
      toJsonEvent({
        type: "compaction",
        compactionId: "c2",
        record: { ...record, skills: ["deploy"] },
        tokensBefore: 1,
        tokensAfter: 1,
        durationMs: 5,
      }),
    ).toMatchObject({ skills: ["deploy"] });
  });

  it("maps tool calls, tool results, retries, failures and skips", () => {
    expect(
      toJsonEvent({
        type: "tool-call",
        call: { type: "tool-call", id: "c1", name: "read", arguments: { path: "a" } },
      }),
    ).toEqual({ type: "tool_call", id: "c1", name: "read", arguments: { path: "a" } });
    expect(
      toJsonEvent({
        type: "tool-result",
        result: {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "read",
          isError: true,
          content: [
            { type: "text", text: "no such file" },
            { type: "image", mediaType: "image/png", data: "AAAA" },
          ],
        },
      }),
    ).toEqual({
      type: "tool_result",
      tool_call_id: "c1",
      name: "read",
      is_error: true,
      text: "no such file\n[image image/png]",
    });
    expect(toJsonEvent({ type: "retry-wait", attempt: 2, delayMs: 1500, reason: "529" })).toEqual({
      type: "retry",
      attempt: 2,
      delay_ms: 1500,
      reason: "529",
    });
    expect(
      toJsonEvent({
        type: "compaction-failed",
        trigger: "manual",
        code: "network",
        message: "down",
        attempts: [{ model: "a/b", code: "network", message: "down" }],
        durationMs: 40,
      }),
    ).toEqual({
      type: "compaction_failed",
      trigger: "manual",
      code: "network",
      message: "down",
      attempts: [{ model: "a/b", code: "network", message: "down" }],
      duration_ms: 40,
    });
    expect(toJsonEvent({ type: "compaction-skipped", trigger: "manual", reason: "fits" })).toEqual({
      type: "compaction_skipped",
      trigger: "manual",
      reason: "fits",
    });
    expect(
      toJsonEvent({ type: "compaction-started", trigger: "overflow", model: "a/b", tokensBefore: 900 }),
    ).toEqual({
      type: "compaction_started",
      trigger: "overflow",
      model: "a/b",
      tokens_before: 900,
    });
  });

  it("leaves streaming deltas out of the JSON stream", () => {
    expect(toJsonEvent({ type: "text-delta", text: "x" })).toBeUndefined();
    expect(toJsonEvent({ type: "thinking-delta", text: "x" })).toBeUndefined();
    expect(toJsonEvent({ type: "compaction-progress", characters: 10 })).toBeUndefined();
  });

  it("maps a context warning to context_warning {level, used, size}, level the fraction passed", () => {
    expect(
      toJsonEvent({ type: "context-warning", level: 0.85, used: 170_000, size: 200_000, sizeFrom: "server" }),
    ).toEqual({ type: "context_warning", level: 0.85, used: 170_000, size: 200_000 });
  });

  it("maps a summary prepared ahead to compaction_prepared, and marks a compaction that applied one", () => {
    expect(
      toJsonEvent({
        type: "compaction-prepared",
        model: "anthropic/claude-haiku-4-5",
        turnsSummarised: 12,
        tokensSummarised: 32000,
        summaryTokens: 700,
        durationMs: 4100,
      }),
    ).toEqual({
      type: "compaction_prepared",
      model: "anthropic/claude-haiku-4-5",
      turns_summarised: 12,
      tokens_summarised: 32000,
      summary_tokens: 700,
      duration_ms: 4100,
    });
    const applied = toJsonEvent({
      type: "compaction",
      compactionId: "abc",
      record,
      tokensBefore: 41000,
      tokensAfter: 9700,
      durationMs: 3,
      prepared: true,
    });
    expect(applied).toMatchObject({ type: "compaction", trigger: "overflow", prepared: true });
    const fresh = toJsonEvent({
      type: "compaction",
      compactionId: "abc",
      record,
      tokensBefore: 41000,
      tokensAfter: 9700,
      durationMs: 3,
    });
    expect(fresh).not.toHaveProperty("prepared");
  });
});
