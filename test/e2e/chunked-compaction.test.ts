import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import {
  estimateRequestTokens,
  type FakeServer,
  type RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";
import { cliEnv, jsonEvents, runCli, tempProject } from "./run-cli.js";

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/**
 * The small model's window: room for the system prompt and the tool definitions (about 3k tokens
 * as this server counts) and a turn, far less than the summary request for six turns of ~2k each.
 */
const WINDOW = 6000;

const isCompactionRequest = (request: RecordedRequest): boolean =>
  JSON.stringify(request.body).includes("<transcript>");

describe("a session moved to a model whose window cannot take even the summary request", {
  timeout: 120_000,
}, () => {
  it("compacts in chained chunks instead of getting stuck, then the retry succeeds", async () => {
    const { home, project } = await tempProject();
    const session = join(project, "s.jsonl");
    // History written against a roomy model...
    const roomy = await startFakeAnthropicServer();
    servers.push(roomy);
    const roomyEnv = cliEnv(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: roomy.url });
    for (let turn = 0; turn < 6; turn++) {
      roomy.enqueue({ type: "text", text: `answer-${turn}` });
      const prompt = `prompt-${turn} ${"context ".repeat(1000)}`;
      const seeded = await runCli(["-m", "anthropic/roomy", "--session", session, "-p", prompt], {
        cwd: project,
        env: roomyEnv,
      });
      expect(seeded.code, seeded.stderr).toBe(0);
    }
    // ...continued on one whose window is smaller than the summary request for all six turns.
    const small = await startFakeAnthropicServer({ contextWindow: WINDOW });
    servers.push(small);
    const result = await runCli(
      ["-m", "anthropic/small", "--session", session, "--json", "-p", "next step?"],
      {
        cwd: project,
        env: cliEnv(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: small.url }),
      },
    );
    expect(result.code, `${result.stderr}\n${result.stdout}`).toBe(0);

    const events = jsonEvents(result.stdout);
    const compaction = events.find((event) => event.type === "compaction");
    expect(compaction).toMatchObject({ trigger: "overflow" });
    // The six history turns and the one in flight; the overflow stated the window, so the keep budget
    // is what fits it (the last history turn may stay verbatim), and most of the history is summarised.
    expect(Number(compaction?.turns_summarised) + Number(compaction?.turns_kept)).toBe(7);
    expect(compaction?.turns_summarised).toBeGreaterThanOrEqual(5);
    expect(compaction?.chunks).toBeGreaterThan(1);
    // This server counts as panto estimates: the overflow's own figures prove the whole summary
    // request over the window, so it is cut up front and never sent whole (issue 33).
    const summaryRequests = small.requests.filter(isCompactionRequest);
    expect(compaction?.chunking).toMatchObject({
      reason: "cut_up_front",
      model: "anthropic/small",
      context_window: WINDOW,
      requests: summaryRequests.length,
    });
    const chunking = compaction?.chunking as {
      least_tokens: number;
      estimated_tokens: number;
      ratio: number;
    };
    expect(chunking.least_tokens).toBe(Math.ceil(chunking.estimated_tokens * chunking.ratio));
    expect(chunking.least_tokens).toBeGreaterThan(WINDOW);
    // The fake server rejects by the same estimate, so the accepted requests are the ones within it.
    const accepted = small.requests
      .filter(isCompactionRequest)
      .filter((request) => estimateRequestTokens(JSON.stringify(request.body)) <= WINDOW);
    expect(accepted).toHaveLength(compaction?.chunks as number);
    for (const [index, request] of accepted.entries()) {
      const messages = JSON.stringify((request.body as { messages: unknown }).messages);
      expect(messages.split("<previous-summary>").length - 1).toBe(index === 0 ? 0 : 1);
    }
    const retry = JSON.stringify(small.requests.at(-1)?.body);
    expect(retry).toContain("next step?");
    expect(retry).not.toContain("prompt-0");
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0 });
  });
});
