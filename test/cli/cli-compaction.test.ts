import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const SUMMARY = "SUMMARY-OF-EARLIER-WORK: the user asked three questions about the parser.";
const OVERFLOW_BODY = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 212345 tokens > 200000 maximum" },
});

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function requestText(request: RecordedRequest): string {
  return JSON.stringify(request.body);
}

function systemText(request: RecordedRequest): string {
  return JSON.stringify((request.body as { system?: unknown }).system ?? "");
}

/**
 * A provider whose window is exceeded exactly by the first request carrying the "overflowing
 * question" without a compaction summary: deterministic, whatever the system prompt's size.
 */
function responder(request: RecordedRequest): FakeReply {
  const text = requestText(request);
  if (text.includes("<transcript>")) return { type: "text", text: SUMMARY };
  if (text.includes("overflowing question") && !text.includes("SUMMARY-OF-EARLIER-WORK"))
    return { type: "error", status: 400, body: OVERFLOW_BODY };
  const asked = /question number (\d)/.exec(text.slice(text.lastIndexOf("question number")))?.[1] ?? "?";
  return { type: "text", text: `Answer to question ${asked}. ${"Details about the parser. ".repeat(20)}` };
}

describe("compaction through the CLI (built CLI against a fake Anthropic server)", {
  timeout: 180_000,
}, () => {
  it("recovers from an overflow by compacting and retrying once, then /compact via -p reports on stdout", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer({ responder });
    await mkdir(join(box.project, ".panto"));
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({ model: MODEL, keep_verbatim_tokens: 10 }),
    );
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const run = (args: string[]) => runPanto(args, { cwd: box.project, env });

    expect((await run(["-p", "question number 1"])).code).toBe(0);
    expect((await run(["-c", "-p", "question number 2"])).code).toBe(0);

    // Print mode: the notice goes to stderr, the answer to stdout.
    const overflow = await run(["-c", "-p", "the overflowing question number 3"]);
    expect(overflow.code).toBe(0);
    expect(overflow.stdout).toMatch(/^Answer to question 3\./);
    expect(overflow.stderr).toMatch(
      /context overflow: compacted 2 turns into a summary \(kept 1 turn, next request \S+ -> \S+ tokens, model anthropic\/claude-sonnet-4-5, fell back: no\); retrying once/,
    );
    const retry = server.requests.at(-1);
    expect(retry === undefined ? "" : requestText(retry)).toContain("SUMMARY-OF-EARLIER-WORK");
    expect(retry === undefined ? "" : requestText(retry)).not.toContain("Answer to question 1");

    const manual = await run(["-c", "--json", "-p", "/compact keep the bug list"]);
    expect(manual.code).toBe(0);
    const events = jsonLines(manual.stdout);
    expect(events.map((event) => event.type)).toEqual([
      "session_started",
      "compaction_started",
      "compaction",
      "done",
    ]);
    expect(events[2]).toMatchObject({
      trigger: "manual",
      model: MODEL,
      fallback: false,
      turns_summarised: 1,
      turns_kept: 0,
      instructions: "keep the bug list",
    });
    const compactionRequest = server.requests.at(-1);
    expect(compactionRequest === undefined ? "" : systemText(compactionRequest)).toContain(
      "## Additional instructions for this compaction run\\n\\nkeep the bug list",
    );
    const userPrompt = JSON.stringify(
      (compactionRequest?.body as { messages?: unknown } | undefined)?.messages,
    );
    expect(userPrompt.split("<previous-summary>").length - 1).toBe(1);
    expect(userPrompt).toContain("overflowing question");

    const context = await run(["-c", "-p", "/context"]);
    expect(context.code).toBe(0);
    expect(context.stdout).toContain("[compaction block]");
    expect(context.stdout).toContain("SUMMARY-OF-EARLIER-WORK");
  });

  it("says there is nothing to compact, without a model call, when everything fits", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer({ responder });
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    expect((await runPanto(["-m", MODEL, "-p", "question number 1"], { cwd: box.project, env })).code).toBe(
      0,
    );
    const result = await runPanto(["-m", MODEL, "-c", "-p", "/compact"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Nothing to compact");
    expect(server.requests).toHaveLength(1);
  });

  it("/compact --force compacts a conversation that fits the budget, keeping the latest turn, in print and JSON modes (issue 42)", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer({ responder });
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const run = (args: string[]) => runPanto(["-m", MODEL, ...args], { cwd: box.project, env });
    expect((await run(["-p", "question number 1"])).code).toBe(0);
    expect((await run(["-c", "-p", "question number 2"])).code).toBe(0);

    // Plain /compact has nothing to do, and says how to force it.
    const plain = await run(["-c", "-p", "/compact"]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain("Nothing to compact");
    expect(plain.stdout).toContain("/compact --force");
    expect(server.requests).toHaveLength(2);

    const preview = await run(["-c", "-p", "/compact --preview --force"]);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/summarise/);
    expect(server.requests).toHaveLength(2);

    const forced = await run(["-c", "--json", "-p", "/compact --force keep the parser notes"]);
    expect(forced.code).toBe(0);
    const events = jsonLines(forced.stdout);
    expect(events.find((event) => event.type === "compaction")).toMatchObject({
      trigger: "manual",
      turns_summarised: 1,
      turns_kept: 1,
      instructions: "keep the parser notes",
    });
    const summaryRequest = server.requests.at(-1);
    const transcript = JSON.stringify((summaryRequest?.body as { messages?: unknown } | undefined)?.messages);
    expect(transcript).toContain("question number 1");
    expect(transcript).not.toContain("question number 2");

    // The next request carries the summary and the latest turn verbatim, not the first turn.
    expect((await run(["-c", "-p", "question number 3"])).code).toBe(0);
    const next = requestText(server.requests.at(-1) as RecordedRequest);
    expect(next).toContain("SUMMARY-OF-EARLIER-WORK");
    expect(next).toContain("question number 2");
    expect(next).not.toContain("question number 1");

    // Text mode: a single turn leaves nothing older to summarise, even forced.
    const box2 = await makeSandbox();
    const env2 = { ...box2.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const run2 = (args: string[]) => runPanto(["-m", MODEL, ...args], { cwd: box2.project, env: env2 });
    expect((await run2(["-p", "question number 1"])).code).toBe(0);
    const single = await run2(["-c", "-p", "/compact --force"]);
    expect(single.code).toBe(0);
    expect(single.stdout).toContain("Nothing to compact: nothing older than the latest turn");
  });

  it("reports a failed /compact as compaction_failed and an error, exit 1, leaving the session as it was", async () => {
    const box = await makeSandbox();
    const failing = (request: RecordedRequest): FakeReply =>
      requestText(request).includes("<transcript>")
        ? {
            type: "error",
            status: 500,
            body: JSON.stringify({ type: "error", error: { type: "api_error", message: "boom" } }),
          }
        : responder(request);
    server = await startFakeAnthropicServer({ responder: failing });
    await mkdir(join(box.project, ".panto"));
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({ model: MODEL, keep_verbatim_tokens: 0 }),
    );
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    expect((await runPanto(["-p", "question number 1"], { cwd: box.project, env })).code).toBe(0);
    const result = await runPanto(["-c", "--json", "-p", "/compact"], { cwd: box.project, env });
    expect(result.code).toBe(1);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "compaction_failed")).toMatchObject({
      trigger: "manual",
      code: "server",
      attempts: [{ model: MODEL, code: "server" }],
    });
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "server" });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 1 });
    const context = await runPanto(["-c", "-p", "/context"], { cwd: box.project, env });
    expect(context.stdout).toContain("no compaction block, 1 turn");
  });
});
