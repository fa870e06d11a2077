import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type CompactionOutcome,
  estimateTokens,
  groupTurns,
  planRetention,
  runCompaction,
  type SummariseFn,
  sizeMessages,
  sizeTurns,
} from "../../src/compaction/index.js";
import { type EffectiveContext, type Message, PantoError } from "../../src/core/index.js";
import { orphans } from "./builders.js";
import {
  assignUsage,
  buildConversation,
  type ConversationSpec,
  conversationSpec,
  simulatedTokens,
} from "./conversation-arbitrary.js";

/**
 * The effective context the spec says a compaction leaves (rules 3 and 4): the summary, then the
 * kept messages; any other outcome leaves the context as it was. replay() must agree with it.
 */
function applyCompaction(context: EffectiveContext, outcome: CompactionOutcome): EffectiveContext {
  if (outcome.type !== "compacted") return context;
  return { compaction: { type: "compaction", summary: outcome.record.summary }, messages: [...outcome.kept] };
}

const SYSTEM_PROMPT_TOKENS = 1_500;
const budgets = fc.constantFrom(0, 40, 200, 1_000, 5_000, 50_000);

/** Session-file entries as the session store writes them (message entries and compaction entries). */
type LogEntry = { type: "message"; message: Message } | { type: "compaction"; summary: string };

/** Replay as the spec describes it: the latest compaction block and every message after it. */
function replay(log: readonly LogEntry[]): EffectiveContext {
  let start = 0;
  let compaction: EffectiveContext["compaction"];
  log.forEach((entry, index) => {
    if (entry.type === "compaction") {
      start = index + 1;
      compaction = { type: "compaction", summary: entry.summary };
    }
  });
  const messages = log.slice(start).flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
  return compaction === undefined ? { messages } : { compaction, messages };
}

function countOf(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

describe("turn grouping and retention over generated conversations", () => {
  it("partitions the conversation into whole turns that start only at user messages (or lead the list)", () => {
    fc.assert(
      fc.property(conversationSpec, (spec) => {
        const { messages } = buildConversation(spec);
        const turns = groupTurns(messages);
        expect(turns.flatMap((turn) => turn.messages)).toEqual(messages);
        turns.forEach((turn, index) => {
          expect(turn.messages).toEqual(messages.slice(turn.start, turn.end));
          if (index > 0) expect(turn.messages[0]?.role).toBe("user");
          expect(turn.messages.slice(1).some((message) => message.role === "user")).toBe(false);
          // A turn is closed under tool pairing: never split between a call and its result.
          expect(orphans(turn.messages)).toEqual({ calls: [], results: [] });
        });
      }),
    );
  });

  it("splits into summarised prefix, kept suffix and turn in flight, the suffix the longest that fits", () => {
    fc.assert(
      fc.property(conversationSpec, budgets, fc.boolean(), (spec, budgetTokens, lastTurnInFlight) => {
        const sized = sizeTurns(groupTurns(buildConversation(spec).messages));
        const plan = planRetention(sized, { budgetTokens, lastTurnInFlight });
        const ordered = [...plan.summarise, ...plan.keep, ...(plan.inFlight ? [plan.inFlight] : [])];
        expect(ordered).toEqual(sized);
        if (lastTurnInFlight) expect(plan.inFlight).toBe(sized.at(-1));
        const keptTokens = [...plan.keep, ...(plan.inFlight ? [plan.inFlight] : [])].reduce(
          (t, turn) => t + turn.tokens,
          0,
        );
        expect(plan.keptTokens).toBe(keptTokens);
        if (plan.keep.length > 0) expect(plan.keptTokens).toBeLessThanOrEqual(budgetTokens);
        const next = plan.summarise.at(-1);
        if (next) expect(plan.keptTokens + next.tokens).toBeGreaterThan(budgetTokens);
      }),
    );
  });

  it("keeps messages identical to the originals, the turn in flight last, with no orphan tool call or result", async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationSpec,
        budgets,
        fc.boolean(),
        async (spec, budgetTokens, lastTurnInFlight) => {
          const { messages } = buildConversation(spec);
          assignUsage(messages, SYSTEM_PROMPT_TOKENS);
          const calls: string[] = [];
          const summarise: SummariseFn = async (model) => {
            calls.push(model);
            return { text: "summary" };
          };
          const outcome = await runCompaction({
            context: { messages },
            trigger: lastTurnInFlight ? "overflow" : "manual",
            lastTurnInFlight,
            budgetTokens,
            systemPrompt: "S",
            activeModel: "anthropic/claude-sonnet-4-5",
            summarise,
          });
          if (outcome.type !== "compacted") {
            expect(outcome.type).toBe("nothing-to-summarise");
            expect(calls).toEqual([]);
            return;
          }
          const firstKept = messages.length - outcome.kept.length;
          expect(outcome.kept).toEqual(messages.slice(firstKept));
          const boundaries = [...groupTurns(messages).map((turn) => turn.start), messages.length];
          expect(boundaries).toContain(firstKept);
          expect(orphans(outcome.kept)).toEqual({ calls: [], results: [] });
          if (lastTurnInFlight) {
            const inFlight = groupTurns(messages).at(-1)?.messages ?? [];
            expect(outcome.kept.slice(-inFlight.length)).toEqual(inFlight);
          }
          expect(outcome.record.turnsSummarised + outcome.record.turnsKept).toBe(groupTurns(messages).length);
        },
      ),
    );
  });
});

describe("sizing over generated conversations", () => {
  it("takes coherent usage exactly: every usage-sized turn costs what the provider counted", () => {
    fc.assert(
      fc.property(conversationSpec, (spec) => {
        const { messages } = buildConversation(spec);
        assignUsage(messages, SYSTEM_PROMPT_TOKENS);
        for (const turn of sizeTurns(groupTurns(messages))) {
          if (turn.source !== "usage") continue;
          expect(turn.tokens).toBe(
            turn.messages.reduce((total, message) => total + simulatedTokens(message), 0),
          );
        }
        // Usage covers every turn that follows an answered turn and ends with an answer itself.
        const turns = sizeTurns(groupTurns(messages));
        turns.forEach((turn, index) => {
          const previous = turns[index - 1];
          if (previous?.messages.at(-1)?.role === "assistant" && turn.messages.at(-1)?.role === "assistant") {
            expect(turn.source).toBe("usage");
          }
        });
      }),
    );
  });

  it("without usage, sizes every turn by estimate, never below its true text size (spec rule 8)", () => {
    fc.assert(
      fc.property(conversationSpec, (spec) => {
        const { messages, trueTextTokens } = buildConversation(spec);
        const sizes = sizeMessages(messages);
        sizes.forEach((size, index) => {
          expect(size.source).toBe("estimate");
          expect(size.tokens).toBeGreaterThanOrEqual(trueTextTokens[index] ?? 0);
        });
        expect(sizeTurns(groupTurns(messages)).every((turn) => turn.source === "estimate")).toBe(true);
      }),
    );
  });

  it("never yields a negative size, whatever the usage says", () => {
    const junkUsage = fc.option(
      fc.record({
        promptTokens: fc.integer({ min: -5, max: 100_000 }),
        outputTokens: fc.integer({ min: 0, max: 5_000 }),
        resentOutputTokens: fc.integer({ min: -5, max: 5_000 }),
      }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(conversationSpec, fc.infiniteStream(junkUsage), (spec, usages) => {
        const { messages } = buildConversation(spec);
        for (const message of messages) {
          if (message.role !== "assistant") continue;
          const next = usages.next().value;
          if (next !== undefined) message.usage = next;
        }
        for (const size of sizeMessages(messages)) expect(size.tokens).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it("estimates every generated text at or above its published token count", () => {
    fc.assert(
      fc.property(conversationSpec, (spec) => {
        const { messages, trueTextTokens } = buildConversation(spec);
        messages.forEach((message, index) => {
          const text = message.content
            .map((block) => ("text" in block ? block.text : ""))
            .filter((part) => part !== "")
            .join("\n");
          if (message.role === "user")
            expect(estimateTokens(text)).toBeGreaterThanOrEqual(trueTextTokens[index] ?? 0);
        });
      }),
    );
  });
});

const compactionStep = fc.record({
  chunk: conversationSpec,
  budgetTokens: budgets,
  lastTurnInFlight: fc.boolean(),
  usage: fc.constantFrom("coherent", "absent", "mixed"),
  failures: fc.constantFrom(0, 0, 0, 1, 2),
});

describe("several compactions in a row", () => {
  it("passes only the latest summary, and the effective context is exactly what replay of the session file gives", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(compactionStep, { minLength: 1, maxLength: 5 }), async (steps) => {
        const log: LogEntry[] = [];
        const history: Message[] = [];
        let context: EffectiveContext = { messages: [] };
        const summaries: string[] = [];
        for (const [index, step] of steps.entries()) {
          const spec: ConversationSpec = {
            ...step.chunk,
            leadingAssistant: index === 0 && step.chunk.leadingAssistant,
          };
          const added = buildConversation(spec, `s${index}-`).messages;
          const from = context.messages.length;
          context = { ...context, messages: [...context.messages, ...added] };
          const prefix = SYSTEM_PROMPT_TOKENS + estimateTokens(context.compaction?.summary ?? "");
          assignUsage(
            context.messages,
            prefix,
            from,
            (i) => step.usage === "absent" || (step.usage === "mixed" && i % 3 === 0),
          );
          history.push(...added);
          log.push(...added.map((message) => ({ type: "message" as const, message })));

          const requests: string[] = [];
          let attempt = 0;
          const summary = `<<summary number ${index}>>`;
          const summarise: SummariseFn = async (_model, request) => {
            requests.push(request.userPrompt);
            attempt++;
            if (attempt <= step.failures) throw new PantoError("server", "unavailable");
            return { text: summary };
          };
          const outcome: CompactionOutcome = await runCompaction({
            context,
            trigger: step.lastTurnInFlight ? "overflow" : "manual",
            lastTurnInFlight: step.lastTurnInFlight,
            budgetTokens: step.budgetTokens,
            systemPrompt: "S",
            activeModel: "anthropic/claude-sonnet-4-5",
            compactionModel: "openai/gpt-5-mini",
            summarise,
          });

          for (const userPrompt of requests) {
            const previous = context.compaction?.summary;
            expect(countOf(userPrompt, "<previous-summary>")).toBe(previous === undefined ? 0 : 1);
            if (previous !== undefined)
              expect(userPrompt).toContain(`<previous-summary>\n${previous}\n</previous-summary>`);
            for (const older of summaries.slice(0, -1)) expect(userPrompt).not.toContain(older);
          }
          if (outcome.type === "nothing-to-summarise") expect(requests).toEqual([]);
          if (outcome.type === "failed") expect(requests).toHaveLength(2);
          if (outcome.type === "compacted") {
            expect(outcome.record.fellBack).toBe(step.failures === 1);
            summaries.push(summary);
            // The session store appends the compaction entry, then copies of the kept messages.
            log.push({ type: "compaction", summary: outcome.record.summary });
            log.push(...outcome.kept.map((message) => ({ type: "message" as const, message })));
          }
          context = applyCompaction(context, outcome);
          expect(replay(log)).toEqual(context);
          expect(context.messages).toEqual(history.slice(history.length - context.messages.length));
          expect(orphans(context.messages)).toEqual({ calls: [], results: [] });
          expect(context.compaction?.summary).toBe(summaries.at(-1));
        }
      }),
      { numRuns: 60 },
    );
  });
});
