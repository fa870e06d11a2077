import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { isSummaryRequest } from "../support/recorded-requests.js";
import { cliEnv, jsonEvents, runCli, tempProject } from "./run-cli.js";

const closeAfter = closeAfterEach();

/**
 * The two scenarios of issue 33, through the built CLI, against a fake Anthropic server that counts
 * only the messages (about characters / 4): far less than panto's estimate, which also counts the
 * system prompt and tool definitions. The summary request goes out whole, and is cut into chunks
 * only after the server says it does not fit, sized from the server's own numbers.
 */
const messagesOnly = (request: RecordedRequest): number =>
  Math.ceil(JSON.stringify((request.body as { messages: unknown }).messages).length / 4);

/** A prompt of about `tokens` tokens by that count, in words and figures as real prompts are. */
const prompt = (topic: string, tokens: number): string =>
  `${topic}: ${"the parser keeps a table of 42 offsets for every token it reads, and ".repeat(tokens)}`.slice(
    0,
    tokens * 4,
  );

async function startServer(window: { tokens: number }) {
  let summaries = 0;
  const server = await startFakeAnthropicServer({
    countTokens: messagesOnly,
    get contextWindow() {
      return window.tokens;
    },
    responder: (request) =>
      isSummaryRequest(request)
        ? { type: "text", text: `SUMMARY ${++summaries}: the user described the parser.` }
        : { type: "text", text: "Understood." },
  });
  return closeAfter(server);
}

async function cliSession() {
  const { home, project } = await tempProject();
  const session = join(project, "session.jsonl");
  return (url: string, text: string) =>
    runCli(["-m", "anthropic/claude-test", "--session", session, "--json", "-p", text], {
      cwd: project,
      env: cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: url }),
    });
}

describe("a summary request the server would accept whole (issue 33)", { timeout: 120_000 }, () => {
  it("is sent whole, once, when two old turns of about 1,500 tokens fit a window of 4,000", async () => {
    const server = await startServer({ tokens: 4000 });
    const run = await cliSession();
    for (const topic of ["first", "second"])
      expect((await run(server.url, prompt(topic, 1500))).code).toBe(0);
    const before = server.requests.length;
    const third = await run(server.url, prompt("third", 1500));
    expect(third.code, third.stderr).toBe(0);
    const requests = server.requests.slice(before);
    const summaries = requests.filter(isSummaryRequest);
    const compaction = jsonEvents(third.stdout).find((event) => event.type === "compaction");
    expect(compaction).toMatchObject({ trigger: "overflow", turns_summarised: 2 });
    expect(summaries).toHaveLength(1);
    expect(messagesOnly(summaries[0] as RecordedRequest)).toBeLessThanOrEqual(4000);
    expect(compaction?.chunks).toBeUndefined();
  });

  it("takes a handful of requests, sized from the rejection, when 16 turns of about 500 tokens meet a window shrunk to 3,000", async () => {
    const window = { tokens: Number.POSITIVE_INFINITY };
    const server = await startServer(window);
    const run = await cliSession();
    for (let turn = 1; turn <= 16; turn++)
      expect((await run(server.url, prompt(`turn ${turn}`, 500))).code).toBe(0);
    window.tokens = 3000;
    const before = server.requests.length;
    const next = await run(server.url, "What next?");
    expect(next.code, `${next.stderr}\n${next.stdout}`).toBe(0);
    const summaries = server.requests.slice(before).filter(isSummaryRequest);
    const counts = summaries.map(messagesOnly);
    const compaction = jsonEvents(next.stdout).find((event) => event.type === "compaction");
    // The whole transcript first, rejected by the server's own count; then chunks sized from its
    // numbers, each accepted. Before issue 33 this sent 13 summary requests, cut by the estimate.
    expect(counts[0]).toBeGreaterThan(3000);
    expect(counts.slice(1).every((count) => count <= 3000)).toBe(true);
    expect(summaries.length).toBeLessThanOrEqual(Math.ceil((counts[0] as number) / 3000) + 2);
    expect(compaction).toMatchObject({
      trigger: "overflow",
      chunks: summaries.length - 1,
      chunking: {
        reason: "rejected_whole",
        model: "anthropic/claude-test",
        request_tokens: counts[0],
        context_window: 3000,
        requests: summaries.length,
      },
    });
  });
});
