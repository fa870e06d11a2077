import { describe, expect, it } from "vitest";
import {
  type CompactionRequest,
  estimateRequest,
  type RunCompactionInput,
  runCompaction,
  type SummariseFn,
} from "../../src/compaction/index.js";
import { type Message, PantoError } from "../../src/core/index.js";
import { assistant, user } from "./builders.js";

/**
 * Issue 33: the summary request goes out whole, and is cut into chunks only after the provider says
 * it does not fit (or its own figures already prove it), sized from the provider's numbers.
 */

/** `turns` turns of about `chars` characters each, the last one the turn in flight. */
function conversation(turns: number, chars = 800): Message[] {
  return Array.from({ length: turns }, (_, index): Message[] => [
    user(`prompt-${index} ${"the parser reads offsets and 42 tokens; ".repeat(Math.ceil(chars / 40))}`),
    assistant(`answer-${index}`),
  ]).flat();
}

/** The prompt ids in a request's transcript (not its previous summary). */
const transcriptIds = (request: CompactionRequest): number[] =>
  (request.userPrompt.split("<transcript>")[1]?.match(/prompt-\d+/g) ?? []).map((id) => Number(id.slice(7)));

interface Sent {
  model: string;
  request: CompactionRequest;
  count: number;
  accepted: boolean;
}

/**
 * A provider that counts `ratio` of panto's estimate and rejects a request over `window` the way
 * `numbers` says: with its size and the window, with the window alone, or with neither.
 */
function provider(options: {
  ratio: number;
  window: number;
  numbers?: "both" | "window" | "none" | "implausible";
  refuse?: (model: string) => PantoError | undefined;
}): { summarise: SummariseFn; sent: Sent[] } {
  const sent: Sent[] = [];
  const summarise: SummariseFn = async (model, request) => {
    const count = Math.ceil(estimateRequest(request) * options.ratio);
    const refused = options.refuse?.(model);
    if (refused !== undefined) {
      sent.push({ model, request, count, accepted: false });
      throw refused;
    }
    const accepted = count <= options.window;
    sent.push({ model, request, count, accepted });
    if (!accepted) {
      const numbers = options.numbers ?? "both";
      const stated =
        numbers === "both"
          ? { requestTokens: count, inputTokens: count, contextWindow: options.window }
          : numbers === "window"
            ? { contextWindow: options.window }
            : numbers === "implausible"
              ? { requestTokens: 10 ** 9, inputTokens: 10 ** 9, contextWindow: options.window }
              : {};
      throw new PantoError("context_overflow", "prompt is too long", stated);
    }
    return { text: `S${sent.filter((s) => s.accepted).length}` };
  };
  return { summarise, sent };
}

function input(
  overrides: Partial<RunCompactionInput> & Pick<RunCompactionInput, "summarise">,
): RunCompactionInput {
  return {
    context: { messages: conversation(13) },
    trigger: "overflow",
    lastTurnInFlight: true,
    budgetTokens: 0,
    systemPrompt: "SUMMARISE",
    activeModel: "p/active",
    ...overrides,
  };
}

/** Each summarised turn reaches exactly one accepted request, in order. */
function expectEveryTurnOnce(sent: Sent[], turns: number): void {
  const order = sent.filter((s) => s.accepted).flatMap((s) => transcriptIds(s.request));
  expect(order).toEqual(Array.from({ length: turns }, (_, index) => index));
}

describe("the summary request goes out whole first", () => {
  it("sends the whole transcript once when the provider would take it, however large panto estimates it", async () => {
    // The provider counts a fifth of the estimate: the estimate alone would have cut this into chunks.
    const { summarise, sent } = provider({ ratio: 0.2, window: 2000 });
    const outcome = await runCompaction(input({ summarise }));
    expect(outcome.type).toBe("compacted");
    expect(sent).toHaveLength(1);
    expect(estimateRequest(sent[0]!.request)).toBeGreaterThan(2000);
    if (outcome.type !== "compacted") return;
    expect(outcome.record.chunks).toBeUndefined();
    expect(outcome.record.chunking).toBeUndefined();
  });

  it("sends it whole to the compaction model, then whole to the active model, before any chunk", async () => {
    const { summarise, sent } = provider({
      ratio: 1,
      window: 1e9,
      refuse: (model) =>
        model === "p/compactor"
          ? new PantoError("invalid_request", "no such model", { status: 404 })
          : undefined,
    });
    const outcome = await runCompaction(input({ summarise, compactionModel: "p/compactor" }));
    expect(sent.map((s) => [s.model, transcriptIds(s.request).length])).toEqual([
      ["p/compactor", 12],
      ["p/active", 12],
    ]);
    expect(outcome).toMatchObject({ type: "compacted", record: { fellBack: true, model: "p/active" } });
  });

  it("sends it whole when the figures it has do not prove it too large", async () => {
    const { summarise, sent } = provider({ ratio: 0.5, window: 100_000 });
    const outcome = await runCompaction(
      input({ summarise, figures: { model: "p/active", contextWindow: 100_000, leastRatio: 0.5 } }),
    );
    expect(outcome.type).toBe("compacted");
    expect(sent).toHaveLength(1);
  });
});

describe("chunks sized from the provider's answer", () => {
  it("after a rejection stating its numbers, takes about ceil(T / W) chunks, each turn in exactly one, in order", async () => {
    const window = 1500;
    const { summarise, sent } = provider({ ratio: 0.5, window });
    const outcome = await runCompaction(input({ summarise }));
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    const [whole, ...chunks] = sent;
    expect(whole?.accepted).toBe(false);
    expect(chunks.every((chunk) => chunk.accepted)).toBe(true);
    expect(chunks.every((chunk) => chunk.count < (whole?.count ?? 0))).toBe(true);
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil((whole?.count ?? 0) / window) + 1);
    expectEveryTurnOnce(sent, 12);
    expect(outcome.record.summary).toBe(`S${chunks.length}`);
    expect(outcome.record.chunks).toBe(chunks.length);
    expect(outcome.record.chunking).toEqual({
      reason: "rejected_whole",
      model: "p/active",
      requestTokens: whole?.count,
      contextWindow: window,
      requests: sent.length,
    });
    for (const [index, chunk] of chunks.entries())
      if (index > 0)
        expect(chunk.request.userPrompt).toContain(`<previous-summary>\nS${index}\n</previous-summary>`);
  });

  it.each([
    ["no numbers", "none"],
    ["the window alone", "window"],
    ["a size its bytes cannot reach", "implausible"],
  ] as const)("halves, and finishes, when the rejection states %s", async (_kind, numbers) => {
    const { summarise, sent } = provider({ ratio: 0.5, window: 1500, numbers });
    const outcome = await runCompaction(input({ summarise }));
    expect(outcome.type).toBe("compacted");
    expectEveryTurnOnce(sent, 12);
    // Halving: the first chunk after the whole holds about half its turns.
    expect(transcriptIds(sent[1]!.request).length).toBeLessThanOrEqual(6);
    expect(sent.length).toBeLessThan(20);
    if (outcome.type === "compacted")
      expect(outcome.record.chunking).toMatchObject({ reason: "rejected_whole" });
  });

  it("halves the transcript, not the fixed part every chunk carries again, when the rejection states no numbers", async () => {
    // A long system prompt: a fifth of the window goes to the part every summary request repeats.
    const systemPrompt = `SUMMARISE ${"keep every path, figure and decision; ".repeat(60)}`;
    const fixed = estimateRequest({ systemPrompt, userPrompt: "<transcript>\n\n</transcript>" });
    const window = fixed * 5;
    const { summarise, sent } = provider({ ratio: 1, window, numbers: "none" });
    const outcome = await runCompaction(
      input({ summarise, systemPrompt, context: { messages: conversation(25) } }),
    );
    expect(outcome.type).toBe("compacted");
    expectEveryTurnOnce(sent, 24);
    const accepted = sent.filter((s) => s.accepted);
    // After a rejection, the next chunk is cut to the fixed part and half the rejected transcript,
    // which was over the room the window leaves beside the fixed part: so every accepted chunk but
    // the last holds over half that room, less one turn (chunks are whole turns). Halving the whole
    // request instead leaves chunks of about a third of the room here.
    const transcript = (s: Sent) => s.count - fixed;
    const room = window - fixed;
    const total = accepted.reduce((sum, chunk) => sum + transcript(chunk), 0);
    const turn = total / 24;
    for (const chunk of accepted.slice(0, -1)) expect(transcript(chunk)).toBeGreaterThan(room / 2 - turn);
    expect(accepted.length).toBeLessThanOrEqual(2 * Math.ceil(total / room) + 1);
  });

  it("cuts a chunk still rejected smaller, never resending it as large, and fails on one turn too large alone", async () => {
    // A provider whose count grows faster than the estimate: the first calibration is too generous.
    const sent: Sent[] = [];
    const summarise: SummariseFn = async (model, request) => {
      const turns = transcriptIds(request).length;
      const count = turns * turns * 100;
      const accepted = count <= 1000;
      sent.push({ model, request, count, accepted });
      if (!accepted)
        throw new PantoError("context_overflow", "too long", {
          requestTokens: count,
          inputTokens: count,
          contextWindow: 1000,
        });
      return { text: `S${sent.length}` };
    };
    const outcome = await runCompaction(input({ summarise }));
    expect(outcome.type).toBe("compacted");
    expectEveryTurnOnce(sent, 12);
    const rejectedSizes = new Map<number, number>();
    for (const s of sent) {
      const first = transcriptIds(s.request)[0] as number;
      const size = transcriptIds(s.request).length;
      const rejected = rejectedSizes.get(first);
      if (rejected !== undefined) expect(size).toBeLessThan(rejected);
      if (!s.accepted) rejectedSizes.set(first, size);
    }
    const single = await runCompaction(
      input({
        context: { messages: conversation(3) },
        summarise: async () => {
          throw new PantoError("context_overflow", "too long", { contextWindow: 10, requestTokens: 500 });
        },
      }),
    );
    expect(single).toMatchObject({ type: "failed", error: { code: "context_overflow" } });
  });

  it("chunks for the active model alone when the compaction model failed for another reason", async () => {
    const { summarise, sent } = provider({
      ratio: 0.5,
      window: 1500,
      refuse: (model) => (model === "p/compactor" ? new PantoError("auth", "no key") : undefined),
    });
    const outcome = await runCompaction(input({ summarise, compactionModel: "p/compactor" }));
    expect(sent.filter((s) => s.model === "p/compactor")).toHaveLength(1);
    expect(outcome).toMatchObject({ type: "compacted", record: { fellBack: true, model: "p/active" } });
    expectEveryTurnOnce(sent, 12);
  });

  it("stops asking the compaction model once it fails for a reason other than size while chunking", async () => {
    let compactorCalls = 0;
    const { summarise, sent } = provider({
      ratio: 0.5,
      window: 1500,
      refuse: (model) =>
        model === "p/compactor" && ++compactorCalls === 2
          ? new PantoError("server", "500 internal error", { status: 500 })
          : undefined,
    });
    const outcome = await runCompaction(input({ summarise, compactionModel: "p/compactor" }));
    expect(outcome).toMatchObject({ type: "compacted", record: { fellBack: true, model: "p/active" } });
    // The whole to each model (both too large), the first chunk to the compactor (500), then the active model only.
    expect(sent.slice(0, 3).map((s) => s.model)).toEqual(["p/compactor", "p/active", "p/compactor"]);
    expect(sent.slice(3).every((s) => s.model === "p/active")).toBe(true);
    expectEveryTurnOnce(sent, 12);
  });
});

describe("cut up front", () => {
  it("only when even the smallest ratio seen puts the whole over the window, and never sends the whole", async () => {
    const { summarise, sent } = provider({ ratio: 0.6, window: 1500 });
    const figures = { model: "p/active", contextWindow: 1500, leastRatio: 0.5 };
    const outcome = await runCompaction(input({ summarise, figures }));
    expect(outcome.type).toBe("compacted");
    if (outcome.type !== "compacted") return;
    expect(sent.some((s) => transcriptIds(s.request).length === 12)).toBe(false);
    expectEveryTurnOnce(sent, 12);
    expect(outcome.record.chunking).toMatchObject({
      reason: "cut_up_front",
      model: "p/active",
      contextWindow: 1500,
      ratio: 0.5,
      requests: sent.length,
    });
    const chunking = outcome.record.chunking;
    if (chunking?.reason !== "cut_up_front") return;
    expect(chunking.leastTokens).toBe(Math.ceil(chunking.estimatedTokens * 0.5));
    expect(chunking.leastTokens).toBeGreaterThan(1500);
  });
});
