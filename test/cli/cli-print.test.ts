import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start: setup, closeAfter } = useAnthropicSandboxes("test-key-123");

/** Text of every user-side message in a recorded Anthropic request body. */
function userTexts(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  return JSON.stringify(messages.filter((message) => message.role === "user"));
}

describe("print mode (built CLI against a fake Anthropic server)", { timeout: 90_000 }, () => {
  it("prints only the final answer on stdout and exits 0", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "The answer is 42." });
    const result = await runPanto(["-m", MODEL, "-p", "what is 6 * 7?"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The answer is 42.\n");
    expect(userTexts(server.requests[0]?.body)).toContain("what is 6 * 7?");
    expect(result.stderr).not.toContain("test-key-123");
  });

  it("reads the prompt from stdin when -p has no value", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "from stdin" });
    const result = await runPanto(["-m", MODEL, "-p"], {
      cwd: box.project,
      env,
      input: "explain the stdin path\n",
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("from stdin\n");
    expect(userTexts(server.requests[0]?.body)).toContain("explain the stdin path");
  });

  it("reads a file given as stdin, as the prompt and beside -p; the null device adds nothing", async () => {
    const { box, server, env } = await setup();
    const file = join(box.project, "prompt.txt");
    await writeFile(file, "the prompt from a file\n");
    server.enqueue({ type: "text", text: "one" });
    const alone = await runPanto(["-m", MODEL, "-p"], { cwd: box.project, env, stdinFile: file });
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe("one\n");
    expect(userTexts(server.requests[0]?.body)).toContain("the prompt from a file");
    server.enqueue({ type: "text", text: "two" });
    const beside = await runPanto(["-m", MODEL, "-p", "review this"], {
      cwd: box.project,
      env,
      stdinFile: file,
    });
    expect(beside.code).toBe(0);
    expect(userTexts(server.requests[1]?.body)).toContain("review this");
    expect(userTexts(server.requests[1]?.body)).toContain("the prompt from a file");
    server.enqueue({ type: "text", text: "three" });
    const nothing = await runPanto(["-m", MODEL, "-p", "just this"], {
      cwd: box.project,
      env,
      stdinFile: "/dev/null",
    });
    expect(nothing.code).toBe(0);
    expect(JSON.stringify(server.requests[2]?.body)).toContain("just this");
    expect(JSON.stringify(server.requests[2]?.body)).not.toContain("the prompt from a file");
    const empty = await runPanto(["-m", MODEL, "-p"], { cwd: box.project, env, stdinFile: "/dev/null" });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("the prompt is empty");
    expect(server.requests).toHaveLength(3);
  });

  it("runs in print mode when stdin is piped and -p is not given", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "piped answer" });
    const result = await runPanto(["-m", MODEL], { cwd: box.project, env, input: "piped question" });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("piped answer\n");
  });

  it("creates exactly the --session file, and -c continues the latest session", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "noted" }, { type: "text", text: "it was 7" });
    const sessionPath = join(box.root, "chosen", "my-session.jsonl");
    const first = await runPanto(
      ["-m", MODEL, "--session", "../chosen/my-session.jsonl", "-p", "remember 7"],
      {
        cwd: box.project,
        env,
      },
    );
    expect(first.code).toBe(0);
    const header = JSON.parse((await readFile(sessionPath, "utf8")).split("\n")[0] ?? "");
    expect(header).toMatchObject({ type: "session", version: 1 });
    expect(existsSync(join(box.home, "sessions"))).toBe(false);

    const second = await runPanto(["-m", MODEL, "--session", sessionPath, "--json", "-p", "which number?"], {
      cwd: box.project,
      env,
    });
    const started = jsonLines(second.stdout)[0];
    expect(started).toMatchObject({ type: "session_started", session_path: sessionPath, resumed: true });
    expect(userTexts(server.requests[1]?.body)).toContain("remember 7");
  });

  it("-c picks the most recent session of this project", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "one" }, { type: "text", text: "two" });
    const first = await runPanto(["-m", MODEL, "--json", "-p", "first prompt"], { cwd: box.project, env });
    const firstStart = jsonLines(first.stdout)[0];
    expect(firstStart).toMatchObject({ type: "session_started", resumed: false });
    const second = await runPanto(["-m", MODEL, "--json", "-c", "-p", "second prompt"], {
      cwd: box.project,
      env,
    });
    const secondStart = jsonLines(second.stdout)[0];
    expect(secondStart).toMatchObject({ resumed: true, session_path: firstStart?.session_path });
    expect(userTexts(server.requests[1]?.body)).toContain("first prompt");
  });

  it("exits 1 with the error on stderr when the provider fails for good", async () => {
    const { box, server, env } = await setup();
    const body = JSON.stringify({
      type: "error",
      error: { type: "api_error", message: "Internal server error" },
    });
    server.enqueue(...Array.from({ length: 4 }, () => ({ type: "error" as const, status: 500, body })));
    const result = await runPanto(["-m", MODEL, "-p", "hi"], { cwd: box.project, env });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("server");
  });

  it("exits 1 when an overflow cannot be helped by compaction (nothing older to summarise)", async () => {
    const box = await makeSandbox();
    const server = closeAfter(await startFakeAnthropicServer({ contextWindow: 50 }));
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const result = await runPanto(["-m", MODEL, "--json", "-p", "hi"], { cwd: box.project, env });
    expect(result.code).toBe(1);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "context_overflow" });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 1 });
  });

  it("exits 130 when interrupted with SIGINT during a request", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "hang" });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "hi"], {
      cwd: box.project,
      env,
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (server.requests.length > 0) {
            clearInterval(timer);
            child.kill("SIGINT");
          }
        }, 20);
      },
    });
    expect(result.code).toBe(130);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "aborted" });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 130 });
  });

  it("exits 2 for an unknown slash command given as the prompt", async () => {
    const { box, env } = await setup();
    const result = await runPanto(["-m", MODEL, "-p", "/frobnicate now"], { cwd: box.project, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("/frobnicate");
  });
});

describe("JSON mode", { timeout: 90_000 }, () => {
  it("emits session_started, tool_call, tool_result, assistant_message with usage, and done, one per line", async () => {
    const { box, server, env } = await setup();
    await writeFile(join(box.project, "notes.txt"), "the secret word is swordfish\n");
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_1", name: "read", arguments: { path: "notes.txt" } }] },
      // More than the first request's prompt (the fake's default usage counts its body): the
      // conversation only grew, so a smaller figure would read as a silently truncated prompt.
      { type: "text", text: "It says swordfish.", usage: { input: 2900, output: 12, cacheRead: 800 } },
    );
    const result = await runPanto(["-m", MODEL, "--json", "-p", "what does notes.txt say?"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.map((event) => event.type)).toEqual([
      "session_started",
      "tool_call",
      "assistant_message",
      "tool_result",
      "assistant_message",
      "done",
    ]);
    expect(events[0]).toMatchObject({ model: MODEL, resumed: false, cwd: box.project });
    expect(typeof events[0]?.session_id).toBe("string");
    expect(events[1]).toEqual({
      type: "tool_call",
      id: "toolu_1",
      name: "read",
      arguments: { path: "notes.txt" },
    });
    expect(events[3]).toMatchObject({
      type: "tool_result",
      tool_call_id: "toolu_1",
      name: "read",
      is_error: false,
    });
    expect(String(events[3]?.text)).toContain("swordfish");
    expect(events[4]).toMatchObject({
      type: "assistant_message",
      text: "It says swordfish.",
      stop_reason: "stop",
      provider: "anthropic",
      usage: { prompt_tokens: 3700, output_tokens: 12, cache_read_tokens: 800 },
    });
    expect(events[5]).toMatchObject({ type: "done", exit_code: 0, text: "It says swordfish." });
  });

  it("reports a transient provider failure that was retried as a retry event", async () => {
    const { box, server, env } = await setup();
    const overloaded = JSON.stringify({
      type: "error",
      error: { type: "overloaded_error", message: "Overloaded" },
    });
    server.enqueue({ type: "error", status: 529, body: overloaded }, { type: "text", text: "made it" });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "hi"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    const retry = events.find((event) => event.type === "retry");
    expect(retry).toMatchObject({ attempt: 1 });
    expect(typeof retry?.delay_ms).toBe("number");
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "made it" });
  });

  it("denies write without --allow-tools (the model is told) and allows it with the flag", async () => {
    const { box, server, env } = await setup();
    const write = { name: "write", arguments: { path: "out.txt", content: "hello" } };
    server.enqueue({ type: "tool-calls", calls: [write] }, { type: "text", text: "ok" });
    const denied = await runPanto(["-m", MODEL, "--json", "-p", "write it"], { cwd: box.project, env });
    const result = jsonLines(denied.stdout).find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ is_error: true });
    expect(String(result?.text)).toContain("did not allow");
    expect(existsSync(join(box.project, "out.txt"))).toBe(false);

    server.enqueue({ type: "tool-calls", calls: [write] }, { type: "text", text: "ok" });
    const allowed = await runPanto(["-m", MODEL, "--json", "--allow-tools", "-p", "write it"], {
      cwd: box.project,
      env,
    });
    expect(jsonLines(allowed.stdout).find((event) => event.type === "tool_result")).toMatchObject({
      is_error: false,
    });
    expect(await readFile(join(box.project, "out.txt"), "utf8")).toBe("hello");
  });
});
