import { describe, expect, it } from "vitest";
import {
  ADDITIONAL_INSTRUCTIONS_HEADING,
  type CompactionEvent,
  type CompactionRequest,
  type RunCompactionInput,
  runCompaction,
  type SummariseFn,
} from "../../src/compaction/index.js";
import { type EffectiveContext, type Message, PantoError } from "../../src/core/index.js";
import { assistant, call, results, user } from "./builders.js";

/** Four turns; the last one is the turn in flight in overflow tests. */
function context(compaction?: string): EffectiveContext {
  const messages = [
    user("Set up the project"),
    assistant("Done: package.json created."),
    user("Add a test for parseConfig"),
    assistant([call("c1", "write_file", { path: "test/parse-config.test.ts", content: "..." })]),
    results({ id: "c1", name: "write_file", text: "written" }),
    assistant("Test added."),
    user("Run the tests"),
    assistant("All green."),
    user("Now the README"),
  ];
  return compaction === undefined
    ? { messages }
    : { compaction: { type: "compaction", summary: compaction }, messages };
}

interface Recorded {
  model: string;
  request: CompactionRequest;
}

/** A fake model call: answers from `replies` in order, recording each request. */
function fakeSummarise(replies: Array<string | Error>): { summarise: SummariseFn; calls: Recorded[] } {
  const calls: Recorded[] = [];
  const summarise: SummariseFn = async (model, request) => {
    calls.push({ model, request });
    const reply = replies[calls.length - 1];
    if (reply === undefined) throw new Error("unexpected extra call");
    if (reply instanceof Error) throw reply;
    return { text: reply };
  };
  return { summarise, calls };
}

function input(
  overrides: Partial<RunCompactionInput> & Pick<RunCompactionInput, "summarise">,
): RunCompactionInput {
  return {
    context: context(),
    trigger: "manual",
    lastTurnInFlight: false,
    budgetTokens: 0,
    systemPrompt: "SUMMARISE",
    activeModel: "anthropic/claude-sonnet-4-5",
    ...overrides,
  };
}

const FAILURES: Array<[string, Error | string]> = [
  ["a context overflow", new PantoError("context_overflow", "prompt is too long", { status: 400 })],
  ["an unknown model", new PantoError("invalid_request", "model: claude-haiku-9 not found", { status: 404 })],
  ["an HTTP error", new PantoError("server", "500 internal error", { status: 500 })],
  ["a network error", new PantoError("network", "ECONNREFUSED", { retryable: true })],
  ["a missing key", new PantoError("auth", "no API key for openai")],
  ["a plain exception", new TypeError("fetch failed")],
  ["an empty summary", "  \n "],
];

describe("runCompaction model selection", () => {
  it.each(FAILURES)("falls back to the active model exactly once after %s", async (_kind, failure) => {
    const { summarise, calls } = fakeSummarise([failure, "Summary by the active model"]);
    const events: CompactionEvent[] = [];
    const outcome = await runCompaction(
      input({ summarise, compactionModel: "openai/gpt-5-mini", onEvent: (event) => events.push(event) }),
    );
    expect(calls.map((call) => call.model)).toEqual(["openai/gpt-5-mini", "anthropic/claude-sonnet-4-5"]);
    expect(calls[1]?.request).toEqual(calls[0]?.request);
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    expect(outcome.record).toMatchObject({
      model: "anthropic/claude-sonnet-4-5",
      fellBack: true,
      summary: "Summary by the active model",
    });
    expect(events.map((event) => event.type)).toEqual([
      "compaction-attempt",
      "compaction-attempt-failed",
      "compaction-attempt",
    ]);
    const failed = events[1];
    expect(failed?.type === "compaction-attempt-failed" && failed.error).toBeInstanceOf(PantoError);
  });

  it("uses the compaction model and records that it did not fall back", async () => {
    const { summarise, calls } = fakeSummarise(["S"]);
    const outcome = await runCompaction(input({ summarise, compactionModel: "openai/gpt-5-mini" }));
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({
      type: "compacted",
      record: { model: "openai/gpt-5-mini", fellBack: false },
    });
  });

  it("reports both attempts when the active model fails too", async () => {
    const { summarise, calls } = fakeSummarise([
      new PantoError("context_overflow", "too long"),
      new PantoError("rate_limit", "slow down"),
    ]);
    const outcome = await runCompaction(input({ summarise, compactionModel: "openai/gpt-5-mini" }));
    expect(calls).toHaveLength(2);
    expect(outcome.type).toBe("failed");
    if (outcome.type !== "failed") return;
    expect(outcome.error.code).toBe("rate_limit");
    expect(outcome.attempts.map((attempt) => [attempt.model, attempt.error.code])).toEqual([
      ["openai/gpt-5-mini", "context_overflow"],
      ["anthropic/claude-sonnet-4-5", "rate_limit"],
    ]);
  });

  it("makes one attempt only when compaction_model is unset", async () => {
    const { summarise, calls } = fakeSummarise([new PantoError("network", "down"), "never used"]);
    const outcome = await runCompaction(input({ summarise }));
    expect(calls.map((call) => call.model)).toEqual(["anthropic/claude-sonnet-4-5"]);
    expect(outcome).toMatchObject({ type: "failed", error: { code: "network" } });
  });

  it("makes one attempt only when compaction_model is the active model", async () => {
    const { summarise, calls } = fakeSummarise(["", "never used"]);
    const outcome = await runCompaction(input({ summarise, compactionModel: "anthropic/claude-sonnet-4-5" }));
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({
      type: "failed",
      error: { code: "other", message: expect.stringMatching(/empty summary/) },
    });
  });

  it("stops on abort without trying the fallback", async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const summarise: SummariseFn = async (model, _request, signal) => {
      calls.push(model);
      controller.abort();
      expect(signal).toBe(controller.signal);
      throw new Error("socket closed");
    };
    const outcome = await runCompaction(
      input({ summarise, compactionModel: "openai/gpt-5-mini", signal: controller.signal }),
    );
    expect(calls).toEqual(["openai/gpt-5-mini"]);
    expect(outcome).toMatchObject({ type: "failed", error: { code: "aborted" } });
  });

  it("does not fall back when the model call itself reports an abort", async () => {
    const { summarise, calls } = fakeSummarise([new PantoError("aborted", "interrupted"), "never used"]);
    const outcome = await runCompaction(input({ summarise, compactionModel: "openai/gpt-5-mini" }));
    expect(calls).toHaveLength(1);
    expect(outcome).toMatchObject({ type: "failed", error: { code: "aborted" } });
  });

  it("calls no model when already aborted", async () => {
    const { summarise, calls } = fakeSummarise(["S"]);
    const outcome = await runCompaction(input({ summarise, signal: AbortSignal.abort() }));
    expect(calls).toHaveLength(0);
    expect(outcome).toMatchObject({ type: "failed", error: { code: "aborted" }, attempts: [] });
  });
});

describe("runCompaction retention and result", () => {
  it("calls no model when only the turn in flight exists", async () => {
    const { summarise, calls } = fakeSummarise(["S"]);
    const outcome = await runCompaction(
      input({
        summarise,
        trigger: "overflow",
        lastTurnInFlight: true,
        context: { messages: [user("huge paste")] },
      }),
    );
    expect(calls).toHaveLength(0);
    expect(outcome).toEqual({
      type: "nothing-to-summarise",
      reason: "nothing older than the turn in flight",
    });
  });

  it("calls no model when the whole conversation fits the budget", async () => {
    const { summarise, calls } = fakeSummarise(["S"]);
    const outcome = await runCompaction(input({ summarise, budgetTokens: 1_000_000 }));
    expect(calls).toHaveLength(0);
    expect(outcome.type).toBe("nothing-to-summarise");
    expect(outcome).toMatchObject({ forcible: true });
  });

  it("forced, summarises all but the latest turn although the whole conversation fits (/compact --force)", async () => {
    const { summarise, calls } = fakeSummarise(["S"]);
    const outcome = await runCompaction(input({ summarise, budgetTokens: 1_000_000, force: true }));
    expect(calls).toHaveLength(1);
    if (outcome.type !== "compacted") throw new Error(`expected a compaction, got ${outcome.type}`);
    expect(outcome.record.turnsKept).toBe(1);
    expect(outcome.record.turnsSummarised).toBe(outcome.plan.summarise.length);
    expect(outcome.record.turnsSummarised).toBeGreaterThan(0);
    expect(outcome.kept).toEqual(outcome.plan.keep.flatMap((turn) => turn.messages));
  });

  it("keeps the turn in flight and the fitting suffix verbatim, after the summary, and records the figures", async () => {
    const { summarise, calls } = fakeSummarise(["  ## User's goal\nA project.  "]);
    const original = context();
    const snapshot = structuredClone(original);
    const outcome = await runCompaction(
      input({ summarise, context: original, trigger: "overflow", lastTurnInFlight: true, budgetTokens: 30 }),
    );
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    expect(outcome.kept).toEqual(original.messages.slice(6));
    expect(outcome.kept[0]).not.toBe(original.messages[6]);
    expect(original).toEqual(snapshot);
    expect(calls[0]?.request.userPrompt).toContain("[User]: Set up the project");
    expect(calls[0]?.request.userPrompt).not.toContain("Run the tests");
    expect(outcome.record).toEqual({
      summary: "## User's goal\nA project.",
      trigger: "overflow",
      model: "anthropic/claude-sonnet-4-5",
      fellBack: false,
      turnsSummarised: 2,
      turnsKept: 2,
      tokensSummarised: outcome.plan.summarisedTokens,
      tokensKept: outcome.plan.keptTokens,
      summaryTokens: expect.any(Number),
      sizeSources: { usage: 0, estimate: 4 },
    });
    expect(outcome.record.summaryTokens).toBeGreaterThan(0);
    expect(outcome.plan.inFlight?.messages).toEqual([user("Now the README")]);
  });

  it("passes the latest active summary as the one previous summary, and instructions only in the system prompt", async () => {
    const { summarise, calls } = fakeSummarise(["S3"]);
    const outcome = await runCompaction(
      input({ summarise, context: context("S2 latest"), instructions: "keep bug #3" }),
    );
    const request = calls[0]?.request as CompactionRequest;
    expect(request.userPrompt.split("<previous-summary>")).toHaveLength(2);
    expect(request.userPrompt).toContain("<previous-summary>\nS2 latest\n</previous-summary>");
    expect(request.systemPrompt).toBe(`SUMMARISE\n\n${ADDITIONAL_INSTRUCTIONS_HEADING}\n\nkeep bug #3\n`);
    expect(request.userPrompt).not.toContain("keep bug #3");
    expect(outcome).toMatchObject({
      type: "compacted",
      record: { instructions: "keep bug #3", summary: "S3" },
    });
  });

  it("leaves instructions out of the record when none were given", async () => {
    const { summarise } = fakeSummarise(["S"]);
    const outcome = await runCompaction(input({ summarise }));
    expect(outcome.type === "compacted" && "instructions" in outcome.record).toBe(false);
  });
});

describe("overflow with a budget larger than the model's window", () => {
  it("summarises the older turns instead of giving up when everything fits the configured budget", async () => {
    const { groupTurns, runCompaction } = await import("../../src/compaction/index.js");
    const messages: Message[] = [];
    for (const word of ["one", "two", "three", "four"]) {
      messages.push({
        role: "user",
        content: [{ type: "text", text: `prompt ${word} ${"x ".repeat(200)}` }],
      });
      messages.push({
        role: "assistant",
        content: [{ type: "text", text: `answer ${word}` }],
        provider: "p",
        api: "openai-chat",
        model: "m",
        stopReason: "stop",
      });
    }
    messages.push({ role: "user", content: [{ type: "text", text: "in flight" }] });
    const requests: string[] = [];
    const outcome = await runCompaction({
      context: { messages },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 1_000_000,
      systemPrompt: "SYSTEM",
      activeModel: "p/m",
      summarise: async (_model, request) => {
        requests.push(request.userPrompt);
        return { text: "SUMMARY" };
      },
    });
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    expect(requests).toHaveLength(1);
    expect(outcome.plan.summarise.length).toBeGreaterThan(0);
    expect(outcome.kept.at(-1)).toEqual(messages.at(-1));
    expect(outcome.plan.summarise.length + outcome.plan.keep.length + 1).toBe(groupTurns(messages).length);
  });

  it("still keeps everything on a manual /compact when it all fits", async () => {
    const { runCompaction } = await import("../../src/compaction/index.js");
    const messages: Message[] = [{ role: "user", content: [{ type: "text", text: "hello" }] }];
    const outcome = await runCompaction({
      context: { messages },
      trigger: "manual",
      lastTurnInFlight: false,
      budgetTokens: 1_000_000,
      systemPrompt: "SYSTEM",
      activeModel: "p/m",
      summarise: async () => ({ text: "never" }),
    });
    expect(outcome.type).toBe("nothing-to-summarise");
  });
});

describe("a summary request too large even for the active model", () => {
  const conversation = (turns: number): Message[] =>
    Array.from({ length: turns }, (_, index): Message[] => [
      { role: "user", content: [{ type: "text", text: `prompt-${index}` }] },
      {
        role: "assistant",
        content: [{ type: "text", text: `answer-${index}` }],
        provider: "p",
        api: "openai-chat",
        model: "m",
        stopReason: "stop",
      },
    ]).flat();
  /** The prompt ids inside a request's transcript (not its previous summary). */
  const transcriptIds = (prompt: string): string =>
    (prompt.split("<transcript>")[1]?.match(/prompt-\d+/g) ?? []).join(",");
  /** A model whose window holds the transcript of at most two turns. */
  const smallWindow = (requests: string[]) => async (_model: string, request: { userPrompt: string }) => {
    requests.push(request.userPrompt);
    const turns = request.userPrompt.split("[User]:").length - 1;
    if (turns > 2) throw new PantoError("context_overflow", `prompt is too long: ${turns} turns > 2 maximum`);
    return { text: `S[${transcriptIds(request.userPrompt)}]` };
  };

  it("summarises turn-aligned chunks in order, each chunk's summary passed to the next as <previous-summary>", async () => {
    const requests: string[] = [];
    const outcome = await runCompaction({
      context: { compaction: { type: "compaction", summary: "OLDEST" }, messages: conversation(7) },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 0,
      systemPrompt: "SYSTEM",
      activeModel: "p/m",
      summarise: smallWindow(requests),
    });
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    const accepted = requests.filter((prompt) => prompt.split("[User]:").length - 1 <= 2);
    const order = accepted.map(transcriptIds).join(",");
    expect(order).toBe("prompt-0,prompt-1,prompt-2,prompt-3,prompt-4,prompt-5");
    expect(accepted[0]).toContain("<previous-summary>\nOLDEST\n</previous-summary>");
    for (let i = 1; i < accepted.length; i++) {
      expect(accepted[i]!.split("<previous-summary>")).toHaveLength(2);
      expect(accepted[i]).toContain(
        `<previous-summary>\nS[${transcriptIds(accepted[i - 1]!)}]\n</previous-summary>`,
      );
    }
    expect(outcome.record.summary).toBe(`S[${transcriptIds(accepted.at(-1)!)}]`);
    expect(outcome.record.chunks).toBe(accepted.length);
    expect(outcome.record.turnsSummarised).toBe(6);
    expect(outcome.kept).toEqual(conversation(7).slice(-2));
  });

  it("fails when a single turn is too large to summarise, without splitting it", async () => {
    const outcome = await runCompaction({
      context: { messages: conversation(2) },
      trigger: "overflow",
      lastTurnInFlight: true,
      budgetTokens: 0,
      systemPrompt: "SYSTEM",
      activeModel: "p/m",
      summarise: async () => {
        throw new PantoError("context_overflow", "too long");
      },
    });
    expect(outcome.type).toBe("failed");
    if (outcome.type === "failed") expect(outcome.error.code).toBe("context_overflow");
  });

  it("does not chunk when the failure is not an overflow", async () => {
    let calls = 0;
    const outcome = await runCompaction({
      context: { messages: conversation(5) },
      trigger: "manual",
      lastTurnInFlight: false,
      budgetTokens: 0,
      systemPrompt: "SYSTEM",
      activeModel: "p/m",
      summarise: async () => {
        calls++;
        throw new PantoError("server", "500");
      },
    });
    expect(outcome.type).toBe("failed");
    expect(calls).toBe(1);
  });
});
