import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSession } from "../../src/session/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeGeminiServer } from "../../src/simulator/fake-gemini-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type {
  FakeReply,
  FakeServer,
  FakeServerOptions,
  RecordedRequest,
} from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { fakeCount, isSummaryRequest } from "../support/recorded-requests.js";
import { cliEnv, jsonEvents, runCli, sessionLines, tempProject } from "./run-cli.js";

/** llama.cpp's real overflow body (shared fixture), with the fake's numbers. */
const llamaCppOverflow = (requestTokens: number, contextWindow: number) => ({
  status: 400,
  body: JSON.stringify({
    error: {
      code: 400,
      message: `request (${requestTokens} tokens) exceeds the available context size (${contextWindow} tokens), try increasing it`,
      type: "exceed_context_size_error",
      n_prompt_tokens: requestTokens,
      n_ctx: contextWindow,
    },
  }),
});

/** vLLM's real overflow body (shared fixture), with the fake's numbers. */
const vllmOverflow = (requestTokens: number, contextWindow: number) => ({
  status: 400,
  body: JSON.stringify({
    object: "error",
    message: `This model's maximum context length is ${contextWindow} tokens. However, you requested ${requestTokens} tokens (${requestTokens} in the messages, 0 in the completion). Please reduce the length of the messages or completion.`,
    type: "BadRequestError",
    param: null,
    code: 400,
  }),
});

interface Family {
  name: string;
  model: string;
  start: (options: FakeServerOptions) => Promise<FakeServer>;
  env: (server: FakeServer) => Record<string, string>;
  config: (server: FakeServer) => Record<string, unknown>;
}

const FAMILIES: Family[] = [
  {
    name: "Anthropic Messages",
    model: "anthropic/claude-test",
    start: (options) => startFakeAnthropicServer(options),
    env: (server) => ({ ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url }),
    config: () => ({}),
  },
  {
    name: "Google Gemini",
    model: "google/gemini-test",
    start: (options) => startFakeGeminiServer(options),
    env: (server) => ({ GEMINI_API_KEY: "test-key", GEMINI_BASE_URL: server.url }),
    config: () => ({}),
  },
  {
    name: "vLLM via config providers",
    model: "vllm/qwen-test",
    start: (options) => startFakeOpenAIChatServer({ ...options, overflowError: vllmOverflow }),
    env: () => ({}),
    config: (server) => ({ providers: { vllm: { base_url: server.url } } }),
  },
  {
    name: "llama.cpp server via config providers",
    model: "local/qwen-test",
    start: (options) => startFakeOpenAIChatServer({ ...options, overflowError: llamaCppOverflow }),
    env: () => ({}),
    config: (server) => ({ providers: { local: { base_url: server.url } } }),
  },
];

const closeAfter = closeAfterEach();

/** Summary requests get a short summary; chat requests a long answer. */
const responder = (request: RecordedRequest): FakeReply =>
  isSummaryRequest(request)
    ? { type: "text", text: "SUMMARY: the user sent long prompts and got long answers." }
    : { type: "text", text: `answer ${"lorem ipsum dolor ".repeat(120)}` };

const longPrompt = (index: number): string => `prompt-${index} ${"the quick brown fox jumps ".repeat(40)}`;

async function setUp(family: Family, config: Record<string, unknown>) {
  const { home, project } = await tempProject();
  const session = join(project, "session.jsonl");
  /** Starts (or restarts, as a local server is restarted with another context size) the provider. */
  const startServer = async (options: FakeServerOptions) => {
    const server = await family.start({ ...options, responder });
    closeAfter(server);
    await mkdir(join(project, ".panto"), { recursive: true });
    const file = join(project, ".panto", "config.json");
    await writeFile(file, JSON.stringify({ ...family.config(server), ...config }));
    const env = cliEnv(home, family.env(server));
    const run = (prompt: string) =>
      runCli(["-m", family.model, "--session", session, "--json", "-p", prompt], { cwd: project, env });
    return { server, run };
  };
  return { session, startServer, home };
}

/** Writes `turns` prompt/answer turns through the real session store, as an earlier run would have. */
async function writeHistory(path: string, modelId: string, turns: number): Promise<void> {
  const session = await openSession(path, { cwd: dirname(path) });
  const [provider = "", model = ""] = modelId.split("/");
  for (let turn = 1; turn <= turns; turn++) {
    await session.appendMessage({ role: "user", content: [{ type: "text", text: longPrompt(turn) }] });
    await session.appendMessage({
      role: "assistant",
      content: [{ type: "text", text: `answer-${turn} ${"lorem ipsum dolor ".repeat(120)}` }],
      provider,
      api: "anthropic-messages",
      model,
      stopReason: "stop",
    });
  }
  await session.close();
}

const compactionEvents = (stdout: string) =>
  jsonEvents(stdout).filter((event) => String(event.type).startsWith("compaction"));

describe.each(FAMILIES)("a learned context window on $name", (family) => {
  it("continues a long session on a window five times smaller than the keep budget: recovers on the single retry, sends no summary request the window rejects, and the next prompt needs no compaction", async () => {
    const window = 6000;
    const { session, startServer } = await setUp(family, { keep_verbatim_tokens: 30000 });
    // About 32,000 tokens of history, written by a model with a larger window...
    await writeHistory(session, family.model, 40);
    // ...then the session continues on a server with a 6,000-token window.
    const { server, run } = await startServer({ contextWindow: window });
    const first = await run("prompt-after-restart");
    expect(first.stderr).not.toMatch(/TypeError|ReferenceError/);
    expect(first.code).toBe(0);
    const events = compactionEvents(first.stdout);
    expect(events.filter((event) => event.type === "compaction")).toHaveLength(1);
    // The size before is the provider's own count of the rejected request, and the event carries it
    // with the window.
    const rejectedRequest = server.requests.find((request) => fakeCount(request) > window);
    expect(events.find((event) => event.type === "compaction")).toMatchObject({
      request_tokens: fakeCount(rejectedRequest as RecordedRequest),
      context_window: window,
      tokens_before: fakeCount(rejectedRequest as RecordedRequest),
    });
    expect(events.some((event) => event.type === "compaction_failed")).toBe(false);
    const next = await run("the prompt after that");
    expect(next.code).toBe(0);
    expect(compactionEvents(next.stdout)).toEqual([]);

    // Exactly one request was rejected (the overflow that started the one compaction); every
    // summary request fitted the window, and so did the retry.
    expect(server.requests.filter((request) => fakeCount(request) > window)).toHaveLength(1);
    const summaries = server.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(1);
    for (const request of summaries) expect(fakeCount(request)).toBeLessThanOrEqual(window);

    const lines = await sessionLines(session);
    expect(lines.find((line) => line.type === "window")).toMatchObject({
      model: family.model,
      contextWindow: window,
    });
    expect(lines.find((line) => line.type === "compaction")).toMatchObject({
      windows: { [family.model]: { contextWindow: window } },
    });
  }, 180_000);

  it("fails at once, with no model call beyond the rejected one, when a 512-token window cannot hold even the fixed overhead", async () => {
    const { session, startServer } = await setUp(family, {});
    const { server, run } = await startServer({ contextWindow: 512 });
    const result = await run("hello");
    expect(result.code).toBe(1);
    expect(server.requests).toHaveLength(1);
    const error = jsonEvents(result.stdout).find((event) => event.type === "error");
    expect(error).toMatchObject({ code: "context_overflow" });
    expect(String(error?.message)).toMatch(/context window of 512 tokens/);
    expect(String(error?.message)).toMatch(/fixed overhead \(system prompt and tool definitions\)/);
    expect(jsonEvents(result.stdout).some((event) => event.type === "compaction_started")).toBe(false);

    // The window is remembered: the next prompt (a new process) is refused without a summary request.
    const again = await run("hello again");
    expect(again.code).toBe(1);
    expect(server.requests.filter(isSummaryRequest)).toEqual([]);
    expect((await sessionLines(session)).filter((line) => line.type === "window")).toHaveLength(2);
  }, 60_000);
});

describe("a server that silently truncates the prompt", () => {
  const llamaCpp = FAMILIES.find((candidate) => candidate.model.startsWith("local/")) as Family;
  const warningsOf = (stdout: string) => jsonEvents(stdout).filter((event) => event.type === "warning");

  it("warns once, with a code, when the reported prompt is pinned at the context size the server reports", async () => {
    const { startServer, home } = await setUp(llamaCpp, {});
    const { run, server } = await startServer({
      truncateAbove: 1024,
      serverInfo: { kind: "llama.cpp", contextWindow: 1024 },
    });
    // JSON mode asks no server for its window (issue 42): it reads the one an interactive run kept.
    const kept = {
      [server.url]: { "qwen-test": { context_window: 1024, reported: new Date().toISOString() } },
    };
    await writeFile(join(home, "context-windows.json"), JSON.stringify(kept));
    const result = await run(`${"a long prompt that the server cuts ".repeat(400)}`);
    expect(result.code).toBe(0);
    expect(server.infoRequests).toEqual([]);
    const warnings = warningsOf(result.stdout);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: "prompt_truncated" });
    expect(String(warnings[0]?.message)).toMatch(
      /reported a prompt of 1024 tokens, exactly its context size/,
    );
    expect(String(warnings[0]?.message)).toMatch(/num_ctx|OLLAMA_CONTEXT_LENGTH/);
  }, 60_000);

  it("warns when the reported prompt stops growing while the conversation grows, and never for a server that keeps everything", async () => {
    const { startServer } = await setUp(llamaCpp, {});
    const { run } = await startServer({ truncateAbove: 1024 });
    // The first answer alone proves nothing: no context size was reported and nothing came before.
    const first = await run(`${"a long prompt that the server cuts ".repeat(400)}`);
    expect(warningsOf(first.stdout)).toEqual([]);
    const second = await run("and a second question");
    expect(warningsOf(second.stdout)).toHaveLength(1);
    expect(String(warningsOf(second.stdout)[0]?.message)).toMatch(
      /no more than the 1024 it reported for an earlier request although the conversation only grew since/,
    );

    const { run: runUntruncated } = await startServer({});
    for (const prompt of ["a long prompt that fits ".repeat(400), "short", "another"]) {
      const fine = await runUntruncated(prompt);
      expect(warningsOf(fine.stdout)).toEqual([]);
    }
  }, 60_000);
});
