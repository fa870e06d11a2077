import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type {
  FakeServer,
  FakeServerOptions,
  RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { fakeCount, isSummaryRequest } from "../support/recorded-requests.js";
import { cliEnv, jsonEvents, runCli, tempProject } from "./run-cli.js";

/**
 * Issue 9 "honest sizes": where usage exists, the sizes panto reports (JSON tokens_before of
 * `/compact --preview` and of a compaction, tokens_after) are within 15% of what the provider counts.
 * The fake servers count a request as its body's length / 4 and report that as usage, unlike panto's
 * local estimate (about a byte per 3, more for JSON), so the estimate alone is far off.
 */
interface Family {
  name: string;
  model: string;
  start: (options: FakeServerOptions) => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
}

const FAMILIES: Family[] = [
  {
    name: "Anthropic Messages",
    model: "anthropic/claude-test",
    start: startFakeAnthropicServer,
    env: (server) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }),
  },
  {
    name: "OpenAI Chat Completions",
    model: "openai/gpt-4o",
    start: startFakeOpenAIChatServer,
    env: (server) => ({ OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: server.url }),
  },
  {
    name: "Google Gemini",
    model: "google/gemini-test",
    start: startFakeGeminiServer,
    env: (server) => ({ GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url }),
  },
];

const closeAfter = closeAfterEach();

const ANSWER = `Here is the code:\n\`\`\`ts\n${'export const table = { "key": [1, 2, 3], "other": "value" };\n'.repeat(40)}\`\`\``;
/** Relative error of a reported size against the provider's count. */
const error = (reported: number, counted: number): number => Math.abs(reported - counted) / counted;

describe.each(FAMILIES)("reported sizes on $name", (family) => {
  it("are within 15% of the provider's own count where usage exists, before and after a compaction", async () => {
    const { home, project } = await tempProject();
    const server = await family.start({
      responder: (request) =>
        isSummaryRequest(request)
          ? { type: "text", text: "SUMMARY: the user asked for tables of constants, several times." }
          : { type: "text", text: ANSWER },
    });
    closeAfter(server);
    const session = join(project, "session.jsonl");
    // A small keep budget, so that /compact summarises the older turns and keeps the latest ones.
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 1500 }));
    const run = (prompt: string) =>
      runCli(["-m", family.model, "--session", session, "--json", "-p", prompt], {
        cwd: project,
        env: cliEnv(home, family.env(server)),
      });
    for (let index = 1; index <= 4; index++)
      expect((await run(`table number ${index}, please`)).code).toBe(0);

    // /compact --preview: the size of the next request, which the following prompt then sends.
    const preview = jsonEvents((await run("/compact --preview")).stdout).find(
      (event) => event.type === "compaction_preview",
    );
    expect((await run("x")).code).toBe(0);
    const counted = fakeCount(server.requests.at(-1) as RecordedRequest);
    const before = Number(preview?.tokens_before);
    const figures = [
      `preview ${before} vs ${counted} counted (${(error(before, counted) * 100).toFixed(1)}%)`,
    ];
    expect(error(before, counted)).toBeLessThanOrEqual(0.15);

    // A manual compaction's tokens_after against the request sent right after it.
    const compacted = jsonEvents((await run("/compact")).stdout).find((event) => event.type === "compaction");
    expect(compacted).toBeDefined();
    expect((await run("y")).code).toBe(0);
    const after = Number(compacted?.tokens_after);
    const next = fakeCount(server.requests.at(-1) as RecordedRequest);
    figures.push(`after compaction ${after} vs ${next} counted (${(error(after, next) * 100).toFixed(1)}%)`);
    // The figures, for the record (issue 9 asks that the accuracy be visible).
    console.log(`${family.name}: ${figures.join("; ")}`);
    expect(error(after, next)).toBeLessThanOrEqual(0.15);
  }, 120_000);
});
