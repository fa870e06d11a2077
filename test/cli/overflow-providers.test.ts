import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import {
  estimateRequestTokens,
  type FakeReply,
  type FakeServer,
  type FakeServerOptions,
  type RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { makeSandbox, runPanto } from "./panto-process.js";

/**
 * Overflow recovery end to end, once per wire format: the real adapter meets that provider's real
 * context-overflow error (served by the fake server's `contextWindow`), compacts, and retries once.
 *
 * Sizes: each answer is ~2,000 tokens, far more than the prompts, so the window can be set to "the
 * second request plus 1,900": the third request (about 2,000 tokens more) then overflows, the
 * compaction request (the COMPACTION.md prompt plus the first turn's transcript, no tool definitions)
 * fits, and so does the retry (summary plus the kept second turn), with the margin and the summary's
 * allowance (a quarter in all) that panto holds back from the window the overflow error states.
 */
interface Family {
  name: string;
  start: (options?: FakeServerOptions) => Promise<FakeServer>;
  model: string;
  env: (url: string) => NodeJS.ProcessEnv;
}

const FAMILIES: Family[] = [
  {
    name: "Anthropic Messages",
    start: startFakeAnthropicServer,
    model: "anthropic/claude-sonnet-4-5",
    env: (url) => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: url }),
  },
  {
    name: "OpenAI Responses",
    start: startFakeOpenAIResponsesServer,
    model: "openai/gpt-5",
    env: (url) => ({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: url }),
  },
  {
    name: "OpenAI Chat Completions (Ollama preset)",
    start: startFakeOpenAIChatServer,
    model: "ollama/qwen2.5-coder:7b",
    env: (url) => ({ OLLAMA_BASE_URL: url }),
  },
  {
    name: "Google Gemini",
    start: startFakeGeminiServer,
    model: "google/gemini-2.5-pro",
    env: (url) => ({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: url }),
  },
];

const SUMMARY = "SUMMARY-OF-TURN-ONE: the user asked question number 1 about the parser.";
const FILLER = "The tokenizer walks the input once and records each token's position. ".repeat(115);

function responder(request: RecordedRequest): FakeReply {
  const text = JSON.stringify(request.body);
  if (text.includes("<transcript>")) return { type: "text", text: SUMMARY };
  const asked = /question number (\d)/.exec(text.slice(text.lastIndexOf("question number")))?.[1] ?? "?";
  return { type: "text", text: `Answer ${asked}. ${FILLER}` };
}

const closeAfter = closeAfterEach();

describe("overflow recovery through the CLI, per provider family", { timeout: 180_000 }, () => {
  for (const family of FAMILIES) {
    it(`${family.name}: the third prompt overflows, one turn is compacted, the retry answers`, async () => {
      const box = await makeSandbox();
      await mkdir(join(box.project, ".panto"));
      await writeFile(
        join(box.project, ".panto", "config.json"),
        JSON.stringify({ model: family.model, keep_verbatim_tokens: 4000 }),
      );
      const roomy = await family.start({ responder });
      closeAfter(roomy);
      const run = (server: FakeServer, args: string[]) =>
        runPanto(args, { cwd: box.project, env: { ...box.env, ...family.env(server.url) } });
      expect((await run(roomy, ["-p", "question number 1"])).code).toBe(0);
      expect((await run(roomy, ["-c", "-p", "question number 2"])).code).toBe(0);

      const second = roomy.requests.at(-1);
      // The third request is about 2,000 tokens larger than the second: a window 1,900 past the
      // second rejects it, whatever the tool definitions weigh.
      const window = estimateRequestTokens(JSON.stringify(second?.body)) + 1_900;
      const tight = await family.start({ responder, contextWindow: window });
      closeAfter(tight);
      const result = await run(tight, ["-c", "-p", "question number 3"]);

      expect(result.stderr).toMatch(
        /context overflow: compacted 1 turn into a summary \(kept 2 turns, .*fell back: no\); retrying once/,
      );
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith("Answer 3.")).toBe(true);
      const [overflowed, compaction, retry] = tight.requests.map((request) => JSON.stringify(request.body));
      expect(tight.requests).toHaveLength(3);
      expect(overflowed).toContain("question number 3");
      expect(compaction).toContain("<transcript>");
      expect(compaction).toContain("question number 1");
      expect(compaction).not.toContain("question number 2");
      expect(retry).toContain("SUMMARY-OF-TURN-ONE");
      expect(retry).toContain("question number 2");
      expect(retry).not.toContain("Answer 1.");
    });
  }
});
