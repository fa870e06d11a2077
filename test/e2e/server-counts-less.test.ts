import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/compaction/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { isSummaryRequest } from "../support/recorded-requests.js";
import { cliEnv, jsonEvents, runCli, tempProject } from "./run-cli.js";

const closeAfter = closeAfterEach();

/**
 * The scenario of issue 22, through the built CLI: an Anthropic-format server that counts about a
 * third of what panto estimates and leaves the tool definitions out. Its third request is rejected;
 * by its own numbers the message is small and the overhead smaller still, so panto compacts and
 * retries once, and no prompt is taken for a silently truncated one.
 */
const serverCount = (request: RecordedRequest): number => {
  const body = request.body as { system?: unknown; messages: unknown };
  return Math.ceil(estimateTokens(JSON.stringify([body.system, body.messages])) / 3);
};

const paragraph = (topic: string) =>
  `${topic}: ${"the parser keeps a table of offsets for every token it reads, and ".repeat(230)}`;

describe("a server that counts a third of panto's estimate and no tool definitions", () => {
  it("compacts and retries once when its own numbers leave room, and never warns of truncation", async () => {
    const { home, project } = await tempProject();
    const server = await startFakeAnthropicServer({
      countTokens: serverCount,
      contextWindow: 4000,
      responder: (request) =>
        isSummaryRequest(request)
          ? { type: "text", text: "SUMMARY: the user described the parser twice." }
          : { type: "text", text: "Understood." },
    });
    closeAfter(server);
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
    const session = join(project, "session.jsonl");
    const run = (prompt: string) =>
      runCli(["-m", "anthropic/claude-test", "--session", session, "--json", "-p", prompt], {
        cwd: project,
        env,
      });
    const warnings: unknown[] = [];
    for (const topic of ["first", "second"]) {
      const answered = await run(paragraph(topic));
      expect(answered.code).toBe(0);
      warnings.push(...jsonEvents(answered.stdout).filter((event) => event.type === "warning"));
    }
    const before = server.requests.length;
    const third = await run(paragraph("third"));
    expect(third.code).toBe(0);
    const events = jsonEvents(third.stdout);
    warnings.push(...events.filter((event) => event.type === "warning"));
    expect(events.filter((event) => event.type === "compaction")).toHaveLength(1);
    expect(events.filter((event) => event.type === "overflow_retry")).toHaveLength(1);
    const requests = server.requests.slice(before);
    expect(requests.filter((request) => !isSummaryRequest(request))).toHaveLength(2);
    expect(serverCount(requests[0] as RecordedRequest)).toBeGreaterThan(4000);
    expect(serverCount(requests.at(-1) as RecordedRequest)).toBeLessThanOrEqual(4000);
    expect(warnings).toEqual([]);
  }, 60_000);
});
