import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type {
  FakeServer,
  FakeServerOptions,
  RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { bodyText, fakeCount, isSummaryRequest } from "../support/recorded-requests.js";
import { cliEnv, jsonEvents, runCli, sessionLines, tempProject } from "./run-cli.js";

/**
 * Issue 17 item 7: an overflow caused by the message itself (the turn in flight alone does not fit)
 * is reported as that, with the message's size and what to do, leaves the earlier conversation
 * uncompacted, and its hint never suggests /compact. Known either from the overflow body's numbers
 * (Anthropic states them) or from the retry failing the same way (OpenAI Responses states none).
 */
interface Family {
  name: string;
  model: string;
  start: (options: FakeServerOptions) => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
  /** Whether the overflow body states the request's size and the window. */
  numbers: boolean;
}

const FAMILIES: Family[] = [
  {
    name: "Anthropic Messages (the overflow states its numbers)",
    model: "anthropic/claude-test",
    start: startFakeAnthropicServer,
    env: (server) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }),
    numbers: true,
  },
  {
    name: "OpenAI Responses (the overflow states no numbers)",
    model: "openai/gpt-test",
    start: startFakeOpenAIResponsesServer,
    env: (server) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url }),
    numbers: false,
  },
];

const closeAfter = closeAfterEach();

/** A pasted log far larger than the 4,000-token window on its own. */
const HUGE = `please look at this log:\n${"2026-12-03 12:00:00 worker-7 retrying job 4411 after timeout\n".repeat(400)}`;

describe.each(FAMILIES)("a message too large on its own, $name", (family) => {
  it("is reported with its size and what to do, the conversation before it is left uncompacted, and the hint does not suggest /compact", async () => {
    const { home, project } = await tempProject();
    const server = await family.start({
      contextWindow: 4000,
      responder: (request) =>
        isSummaryRequest(request)
          ? { type: "text", text: "SUMMARY-TEXT of the earlier turns" }
          : { type: "text", text: "short answer" },
    });
    closeAfter(server);
    const session = join(project, "session.jsonl");
    const run = (prompt: string) =>
      runCli(["-m", family.model, "--session", session, "--json", "-p", prompt], {
        cwd: project,
        env: cliEnv(home, family.env(server)),
      });
    expect((await run("first question about the parser")).code).toBe(0);
    expect((await run("second question about the lexer")).code).toBe(0);

    const result = await run(HUGE);
    expect(result.code).toBe(1);
    const events = jsonEvents(result.stdout);
    const error = events.find((event) => event.type === "error");
    expect(error).toMatchObject({ code: "context_overflow" });
    expect(String(error?.message)).toMatch(/your message is too large on its own/);
    expect(String(error?.hint)).toMatch(/attach a file instead/);
    // The advice is said once (issue 42): in the hint, not in the message as well.
    expect(`${String(error?.message)}\n${String(error?.hint)}`.split("attach a file instead")).toHaveLength(
      2,
    );
    expect(String(error?.hint)).toMatch(/larger context window/);
    expect(String(error?.hint)).not.toMatch(/\/compact/);

    if (family.numbers) {
      // The server's own figures show the message cannot fit: no summary was asked for, nothing
      // compacted, and the error names those figures (this request's count and the previous one's).
      expect(server.requests.filter(isSummaryRequest)).toEqual([]);
      expect(events.some((event) => String(event.type).startsWith("compaction"))).toBe(false);
      const rejected = server.requests.at(-1) as RecordedRequest;
      const message = String(error?.message);
      expect(message).toMatch(/come to about \d+ tokens by the server's count/);
      expect(message).toContain(`it counted ${fakeCount(rejected)} tokens for this request`);
      expect(message).toMatch(/context window of 4000 tokens/);
      expect(String(error?.hint)).toMatch(/Your message alone \(about \d+ tokens\)/);
    } else {
      // No figures at all: only the retry failing the same way tells, and the error says just that.
      expect(String(error?.message)).toMatch(/the server rejected the request again/);
      expect(String(error?.message)).not.toMatch(/\d+ tokens/);
      expect(String(error?.hint)).toMatch(/^Your message alone does not fit/);
      // Only the retry failing the same way told: the compaction made for it is undone.
      expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(["compaction", "overflow_retry", "compaction_undone"]),
      );
      expect(String(error?.message)).toMatch(/that compaction was undone/);
      const lines = await sessionLines(session);
      expect(lines.filter((line) => line.type === "uncompact")).toHaveLength(1);
    }

    // The next prompt carries the earlier turns verbatim, and neither a summary nor the huge message.
    const next = await run("third question");
    expect(next.code).toBe(0);
    const sent = bodyText(server.requests.at(-1) as RecordedRequest);
    expect(sent).toContain("first question about the parser");
    expect(sent).toContain("second question about the lexer");
    expect(sent).not.toContain("SUMMARY-TEXT");
    expect(sent).not.toContain("retrying job 4411");
  }, 60_000);
});
