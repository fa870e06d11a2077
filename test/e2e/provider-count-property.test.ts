import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Agent, type AgentEvent, buildSystemPrompt } from "../../src/agent/index.js";
import { openSession } from "../../src/session/index.js";
import type { FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { ADAPTER_FAMILIES, type AdapterFamily } from "../support/adapter-families.js";
import { isSummaryRequest } from "../support/recorded-requests.js";
import { countParts, type ServerCount } from "../support/server-count.js";

/**
 * Issue 22: the provider, not panto's estimate, decides. Fake servers of all four wire formats
 * count a request as a random multiple (0.2 to 3) of panto's own estimate, with or without the tool
 * definitions and the system prompt, against a random window, and answer with their real overflow
 * bodies. Whatever they count:
 * - when the turn in flight, the fixed overhead and the summary fit the window by the server's
 *   count, an overflow is followed by one compaction and exactly one retry, which the server accepts;
 * - when they do not fit, the prompt fails as an overflow, and where the server stated its numbers
 *   the error names them (the window at least);
 * - no truncation warning is ever given (these servers never cut a prompt).
 * The keep budget is 0, so the retry holds exactly the overhead, the summary and the turn in flight.
 */

const SUMMARY = "SUMMARY: the user asked questions and got answers.";
/** Room for the summary block (its text and the wrapper panto puts around it), in estimate tokens. */
const SUMMARY_ROOM = 200;

/**
 * The summary request's envelope (its fixed wording, a previous summary, turn markers) in estimated
 * tokens, at most: the window leaves this much room beyond the overhead, so that any one earlier
 * turn can be summarised (v1 never splits a turn, so a window too small for that cannot compact).
 */
const SUMMARY_ENVELOPE = 320;

interface Scenario extends ServerCount {
  /** Window beyond the server's count of the overhead and the summary envelope. */
  extra: number;
  /** Each earlier prompt's size, and the last one's, as shares of `extra` by the server's count. */
  earlier: number[];
  last: number;
}

const scenario = fc.record({
  multiple: fc.double({ min: 0.2, max: 3, noNaN: true }),
  countTools: fc.boolean(),
  countSystem: fc.boolean(),
  extra: fc.integer({ min: 400, max: 9000 }),
  earlier: fc.array(fc.double({ min: 0.15, max: 0.8, noNaN: true }), { minLength: 2, maxLength: 6 }),
  last: fc.double({ min: 0.02, max: 1.6, noNaN: true }),
});

/** About how many characters of these prompts panto estimates at one token. */
const CHARS_PER_ESTIMATED_TOKEN = 2.4;

/** A prompt the server counts at about `tokens`, mixing words and figures as real prompts do. */
const prompt = (index: number, tokens: number, multiple: number): string => {
  const chars = Math.max(8, Math.round((tokens / multiple) * CHARS_PER_ESTIMATED_TOKEN));
  return `prompt ${index}: ${"check src/parser.ts line 42 and rerun npm test; ".repeat(Math.ceil(chars / 48))}`.slice(
    0,
    chars + 12,
  );
};

async function runScenario(family: AdapterFamily, input: Scenario): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "panto-provider-count-"));
  const events: AgentEvent[] = [];
  let server: FakeServer | undefined;
  const session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
  try {
    const tools = createDefaultTools();
    const systemPrompt = await buildSystemPrompt({ cwd: dir, projectRoot: dir });
    // The window, in the server's units: its count of the overhead plus some room.
    let window = 0;
    server = await family.startServer({
      countTokens: (request) => countParts(family, input, request).total,
      get contextWindow() {
        return window;
      },
      responder: (request) =>
        isSummaryRequest(request) ? { type: "text", text: SUMMARY } : { type: "text", text: "an answer" },
    });
    const started = server;
    const createClient = () =>
      family.createClient({
        provider: family.provider,
        model: family.model,
        apiKey: "test-key",
        baseURL: started.url,
        retry: { maxRetries: 0 },
      });
    const agent = new Agent({
      session,
      model: `${family.provider}/${family.model}`,
      createClient,
      tools,
      systemPrompt,
      compactionPrompt: "Summarise the transcript.",
      keepVerbatimTokens: 0,
      approve: async () => "allow",
      onEvent: (event) => events.push(event),
      cwd: dir,
    });
    const shares = [...input.earlier, input.last];
    const prompts = shares.map((share, index) => prompt(index + 1, share * input.extra, input.multiple));
    for (const text of prompts) {
      const before = started.requests.length;
      const eventsBefore = events.length;
      if (window === 0) {
        // Known only once a request shows the overhead's size in the server's units.
        window = Number.POSITIVE_INFINITY;
        await agent.prompt("hello");
        const first = started.requests.at(-1) as RecordedRequest;
        const envelope = Math.ceil(SUMMARY_ENVELOPE * input.multiple);
        window = countParts(family, input, first).overhead + envelope + input.extra;
        continue;
      }
      const result = await agent.prompt(text);
      checkPrompt(family, input, window, started.requests.slice(before), events.slice(eventsBefore), result);
    }
  } finally {
    await session.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

function checkPrompt(
  family: AdapterFamily,
  count: ServerCount,
  window: number,
  requests: RecordedRequest[],
  events: AgentEvent[],
  result: Awaited<ReturnType<Agent["prompt"]>>,
): void {
  expect(events.filter((event) => event.type === "warning")).toEqual([]);
  const chat = requests.filter((request) => !isSummaryRequest(request));
  const first = chat[0] as RecordedRequest;
  const rejected = countParts(family, count, first);
  if (rejected.total <= window) {
    expect(result.ok).toBe(true);
    expect(events.some((event) => event.type === "compaction")).toBe(false);
    return;
  }
  // The first request overflowed. What compaction cannot remove, by the server's count:
  const unshrinkable = rejected.overhead + rejected.lastMessage;
  const fits = unshrinkable + Math.ceil(SUMMARY_ROOM * count.multiple) <= window;
  const retries = chat.length - 1;
  expect(retries).toBeLessThanOrEqual(1);
  if (fits) {
    // Compacted once and retried once, and the server accepted the retry.
    expect(events.filter((event) => event.type === "compaction")).toHaveLength(1);
    expect(retries).toBe(1);
    expect(result.ok).toBe(true);
    return;
  }
  if (unshrinkable <= window) return; // Near the edge: the summary's own size decides, either way is right.
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe("context_overflow");
  if (family.name !== "openai-responses") expect(result.error.message).toContain(String(window));
}

describe.each(ADAPTER_FAMILIES)("a server that counts differently from panto ($name)", (family) => {
  it("compacts and retries once whenever the turn fits by the server's count, refuses only when it does not, and never warns of truncation", async () => {
    await fc.assert(
      fc.asyncProperty(scenario, (input) => runScenario(family, input)),
      { numRuns: 25 },
    );
  }, 240_000);
});
