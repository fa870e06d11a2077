import { describe, expect, it } from "vitest";
import {
  latestAcceptedRequest,
  trustedInputTokens,
  unshrinkableFloor,
} from "../../src/agent/provider-figures.js";
import { refuseBeforeCompaction, refuseRetry } from "../../src/agent/provider-refusals.js";
import type { FitCheck } from "../../src/agent/window-guard.js";
import type { AssistantMessage, EffectiveContext, Message } from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import type { SessionEntry } from "../../src/session/index.js";

const MODEL = "local/m";
let counter = 0;
const stamp = () => ({ id: `e${++counter}`, ts: "2026-12-04T10:00:00.000Z" });
const user = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });
const answer = (promptTokens: number, options: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text: "ok" }],
  provider: "local",
  api: "openai-chat",
  model: "m",
  stopReason: "stop",
  usage: { promptTokens, outputTokens: 20, resentOutputTokens: 20 },
  ...options,
});
const entry = (message: Message, extra: Partial<{ keptBy: string }> = {}): SessionEntry => ({
  type: "message",
  ...stamp(),
  message,
  ...extra,
});

/** An overflow as an adapter reports it: the stated input apart, and the window. */
const overflow = (inputTokens: number, contextWindow: number): PantoError =>
  new PantoError("context_overflow", `prompt is too long: ${inputTokens} tokens > ${contextWindow} maximum`, {
    requestTokens: inputTokens,
    inputTokens,
    contextWindow,
  });

describe("latestAcceptedRequest (usage counted on the context as it still is)", () => {
  it("finds the previous answer with what came between it and the turn in flight", () => {
    const entries = [entry(user("one")), entry(answer(3000)), entry(user("two"))];
    expect(latestAcceptedRequest(entries, MODEL)).toEqual({
      promptTokens: 3000,
      resentOutputTokens: 20,
      between: [],
      after: [user("two")],
    });
  });

  it("skips a failed turn and an aborted answer, and ignores another model's usage", () => {
    const failedStart = entry(user("failed prompt"));
    const entries: SessionEntry[] = [
      entry(user("one")),
      entry(answer(1000, { model: "other" })),
      entry(user("two")),
      entry(answer(2000)),
      failedStart,
      entry(answer(9999)),
      { type: "turn-failed", ...stamp(), firstEntryId: failedStart.id, code: "server", error: "boom" },
      entry(user("three")),
      entry(answer(2500, { stopReason: "aborted" })),
      entry(user("four")),
    ];
    const accepted = latestAcceptedRequest(entries, MODEL);
    expect(accepted?.promptTokens).toBe(2000);
    expect(accepted?.between).toEqual([user("three"), answer(2500, { stopReason: "aborted" })]);
  });

  it("looks past a resumed run's sandbox entry, which changes nothing in the context", () => {
    const entries: SessionEntry[] = [
      entry(user("one")),
      entry(answer(3000)),
      { type: "sandbox", ...stamp(), mode: "workspace-write", network: false, writableRoots: ["/p"] },
      entry(user("two")),
    ];
    expect(latestAcceptedRequest(entries, MODEL)?.promptTokens).toBe(3000);
  });

  it("looks past the checkpoint a tool call writes beside its result, which changes only files", () => {
    const call: AssistantMessage = answer(1500, {
      content: [{ type: "tool-call", id: "c1", name: "bash", arguments: { command: "true" } }],
      stopReason: "tool-use",
    });
    const entries: SessionEntry[] = [
      entry(user("run it")),
      entry(call),
      {
        type: "checkpoint",
        ...stamp(),
        toolCallId: "c1",
        tool: "bash",
        root: "/p",
        scope: "workspace",
        files: [],
        uncovered: [],
      },
      entry({ role: "tool", content: [] }),
    ];
    expect(latestAcceptedRequest(entries, MODEL)?.promptTokens).toBe(1500);
  });

  it("lies inside the turn in flight during a tool round: nothing between", () => {
    const entries = [entry(user("run it")), entry(answer(1500)), entry({ role: "tool", content: [] })];
    expect(latestAcceptedRequest(entries, MODEL)?.between).toEqual([]);
  });

  it("gives none past anything that changed what came before: a compaction, a pin, an undo, a kept copy", () => {
    const after = [entry(user("next"))];
    const compaction = {
      type: "compaction",
      ...stamp(),
      summary: "S",
      trigger: "manual",
      model: MODEL,
      fellBack: false,
      turnsSummarised: 1,
      turnsKept: 0,
      tokensSummarised: 1,
      tokensKept: 0,
      summaryTokens: 1,
      sizeSources: { usage: 0, estimate: 1 },
    } as SessionEntry;
    for (const change of [
      compaction,
      { type: "pin", ...stamp(), text: "note" } as SessionEntry,
      { type: "uncompact", ...stamp(), compactionId: "c" } as SessionEntry,
      entry(answer(3000), { keptBy: "c" }),
    ]) {
      const entries = [entry(user("one")), entry(answer(3000)), change, ...after];
      const last = change.type === "message" ? [change] : [];
      expect(latestAcceptedRequest(change.type === "message" ? [...last, ...after] : entries, MODEL)).toBe(
        undefined,
      );
    }
  });
});

/** The fixed overhead's byte bound in these tests (system prompt and tool definitions, with slack). */
const OVERHEAD_BOUND = 12_000;

describe("trustedInputTokens (a stated size is evidence only when it can be this request's)", () => {
  const context: EffectiveContext = { messages: [user("one"), answer(3214), user("x".repeat(5200))] };
  const accepted = {
    promptTokens: 3214,
    resentOutputTokens: 20,
    between: [],
    after: [user("x".repeat(5200))],
  };

  it("keeps a size consistent with the previous request plus the bytes added since", () => {
    expect(trustedInputTokens(overflow(4522, 4000), OVERHEAD_BOUND, context, accepted)).toBe(4522);
  });

  it("passes over a replayed body's figures: larger than the bytes allow, or below the previous prompt", () => {
    expect(trustedInputTokens(overflow(219_898, 200_000), OVERHEAD_BOUND, context, accepted)).toBeUndefined();
    expect(trustedInputTokens(overflow(9000, 8192), OVERHEAD_BOUND, context, accepted)).toBeUndefined();
    expect(trustedInputTokens(overflow(3000, 2048), OVERHEAD_BOUND, context, accepted)).toBeUndefined();
  });
});

describe("refusing on the provider's numbers only (issue 22)", () => {
  // The server: it counts about a third of panto's estimate and leaves tool definitions out.
  // panto estimates the overhead at 2,441 tokens; the server counted 3,214 for the second request,
  // which held two long prompts and their answers.
  const long = (word: string) => user(`${word} ${"lorem ipsum dolor sit amet ".repeat(500)}`);
  const context: EffectiveContext = {
    messages: [long("first"), answer(1700), long("second"), answer(3214), user("y ".repeat(2000))],
  };
  const check: FitCheck = {
    model: MODEL,
    window: undefined,
    overheadTokens: 2441,
    overheadBound: OVERHEAD_BOUND,
    context,
  };
  const accepted = {
    promptTokens: 3214,
    resentOutputTokens: 20,
    between: [],
    after: [user("y ".repeat(2000))],
  };

  it("does not refuse when the server's figures leave room: this turn is about 1,300 tokens by its count", () => {
    const rejected = overflow(4522, 4000);
    expect(unshrinkableFloor(4522, context, accepted)?.turnTokens).toBe(4522 - 3214 - 20);
    expect(refuseBeforeCompaction(check, rejected, accepted)).toBeUndefined();
    // Nor the retry, with a summary of 300 tokens as the same model counted it.
    const floor = unshrinkableFloor(4522, context, accepted);
    expect(
      refuseRetry(MODEL, floor, 4000, [
        { model: MODEL, promptTokens: 900, outputTokens: 300, resentOutputTokens: 300 },
      ]),
    ).toBe(undefined);
  });

  it("refuses when the turn alone exceeds the window by the server's count, naming its figures", () => {
    const big: EffectiveContext = {
      ...context,
      messages: [...context.messages.slice(0, 4), user("z".repeat(9000))],
    };
    const error = refuseBeforeCompaction({ ...check, context: big }, overflow(8300, 4000), {
      ...accepted,
      after: [user("z".repeat(9000))],
    });
    expect(error?.code).toBe("context_overflow");
    expect(error?.message).toMatch(/your message is too large on its own/);
    expect(error?.message).toContain("come to about 5066 tokens by the server's count");
    expect(error?.message).toContain("it counted 8300 tokens for this request and 3214 for the previous one");
    expect(error?.message).toContain("context window of 4000 tokens");
  });

  it("never refuses without a stated size: compaction and the retry let the server judge", () => {
    const silent = new PantoError("context_overflow", "Your input exceeds the context window of this model.");
    expect(refuseBeforeCompaction(check, silent, accepted)).toBeUndefined();
  });

  it("refuses the retry only when the summary as the server counted it cannot fit beside the floor", () => {
    const floor = unshrinkableFloor(4522, context, accepted);
    const error = refuseRetry(MODEL, floor, 4000, [
      { model: MODEL, promptTokens: 900, outputTokens: 3000, resentOutputTokens: 3000 },
    ]);
    expect(error?.message).toContain("the summary 3000 as local/m counted it");
    // A summary written by another model is not counted: its tokenizer may differ.
    expect(
      refuseRetry(MODEL, floor, 4000, [
        { model: "other/x", promptTokens: 900, outputTokens: 3000, resentOutputTokens: 3000 },
      ]),
    ).toBe(undefined);
  });
});
