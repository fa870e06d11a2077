import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function project(config: Record<string, unknown>) {
  const box = await makeSandbox();
  server = await startFakeAnthropicServer();
  await mkdir(join(box.project, ".panto"));
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ model: MODEL, ...config }));
  const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
  return { fake: server, run: (args: string[]) => runPanto(args, { cwd: box.project, env }) };
}

const zero = { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };

describe("usage totals: done.usage and /cost (built CLI against a fake Anthropic server)", {
  timeout: 120_000,
}, () => {
  it("done.usage is the session's totals, resumed history included, with compaction's summary requests apart", async () => {
    const { fake, run } = await project({ keep_verbatim_tokens: 0 });
    fake.enqueue({
      type: "text",
      text: "first",
      usage: { input: 1200, output: 80, cacheRead: 3000, cacheWrite: 500 },
    });
    const first = jsonLines((await run(["--json", "-p", "one"])).stdout);
    expect(first.at(-1)).toEqual({
      type: "done",
      exit_code: 0,
      text: "first",
      usage: {
        input_tokens: 1200,
        output_tokens: 80,
        cache_read_tokens: 3000,
        cache_write_tokens: 500,
        compaction: zero,
      },
    });

    fake.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "t1", name: "ls", arguments: { path: "." } }],
        usage: { input: 100, output: 20, cacheRead: 4000 },
      },
      { type: "text", text: "second", usage: { input: 300, output: 40, cacheRead: 4100, cacheWrite: 10 } },
    );
    const second = jsonLines((await run(["-c", "--json", "-p", "two"])).stdout);
    expect(second.at(-1)?.usage).toEqual({
      input_tokens: 1600,
      output_tokens: 140,
      cache_read_tokens: 11100,
      cache_write_tokens: 510,
      compaction: zero,
    });

    fake.enqueue({ type: "text", text: "SUMMARY of one and two", usage: { input: 9000, output: 250 } });
    const compacted = jsonLines((await run(["-c", "--json", "-p", "/compact"])).stdout);
    expect(compacted.find((event) => event.type === "compaction")).toBeDefined();
    expect(compacted.at(-1)?.usage).toEqual({
      input_tokens: 1600,
      output_tokens: 140,
      cache_read_tokens: 11100,
      cache_write_tokens: 510,
      compaction: { input_tokens: 9000, output_tokens: 250, cache_read_tokens: 0, cache_write_tokens: 0 },
    });
  });

  it("/cost shows the figures per model, priced from config and only where a price is configured", async () => {
    const { fake, run } = await project({
      keep_verbatim_tokens: 0,
      compaction_model: "anthropic/claude-haiku-4-5",
      prices: {
        [MODEL]: {
          input_per_mtok: 3,
          output_per_mtok: 15,
          cache_read_per_mtok: 0.3,
          cache_write_per_mtok: 3.75,
        },
      },
    });
    fake.enqueue(
      {
        type: "text",
        text: "a",
        usage: { input: 1_000_000, output: 20_000, cacheRead: 2_000_000, cacheWrite: 100_000 },
      },
      { type: "text", text: "b", usage: { input: 500, output: 100 } },
    );
    expect((await run(["-p", "one"])).code).toBe(0);
    expect((await run(["-c", "-p", "two"])).code).toBe(0);
    fake.enqueue({ type: "text", text: "SUMMARY", usage: { input: 7000, output: 300 } });
    expect((await run(["-c", "-p", "/compact"])).code).toBe(0);

    const cost = await run(["-c", "-p", "/cost"]);
    expect(cost.code).toBe(0);
    const lines = cost.stdout.split("\n").map((line) => line.trim().split(/\s{2,}/));
    // 1,000,500 input x 3 + 20,100 output x 15 + 2,000,000 cache read x 0.3 + 100,000 cache write x 3.75, per million.
    expect(lines).toContainEqual([MODEL, "1,000,500", "20,100", "2,000,000", "100,000", "$4.28"]);
    expect(lines).toContainEqual(["anthropic/claude-haiku-4-5", "7,000", "300", "0", "0", "-"]);
    expect(lines).toContainEqual(["Total", "1,007,500", "20,400", "2,000,000", "100,000", "$4.28"]);
    expect(cost.stdout).toContain("Compaction (summary requests)");
    expect(cost.stdout).toContain('"-" elsewhere, not counted in the total');
  });

  it("/cost counts what the task tool's subagents used, in their own sessions, in a section of its own and in the total", async () => {
    const { fake, run } = await project({
      prices: { [MODEL]: { input_per_mtok: 3, output_per_mtok: 15 } },
    });
    fake.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_t", name: "task", arguments: { description: "look", prompt: "look around" } }],
        usage: { input: 1000, output: 50 },
      },
      { type: "text", text: "CHILD-REPORT", usage: { input: 2000, output: 400 } },
      { type: "text", text: "parent done", usage: { input: 1500, output: 60 } },
    );
    const answered = await run(["--json", "-p", "delegate it"]);
    expect(answered.code, answered.stderr).toBe(0);
    // done.usage: the session's own requests at the top level, the subagent's session apart.
    expect(jsonLines(answered.stdout).at(-1)?.usage).toEqual({
      input_tokens: 2500,
      output_tokens: 110,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      compaction: zero,
      subagents: {
        sessions: 1,
        input_tokens: 2000,
        output_tokens: 400,
        cache_read_tokens: 0,
        cache_write_tokens: 0,
      },
    });
    const cost = await run(["-c", "-p", "/cost"]);
    expect(cost.code, cost.stderr).toBe(0);
    const lines = cost.stdout.split("\n").map((line) => line.trim().split(/\s{2,}/));
    expect(cost.stdout).toContain("Subagents (1 task session)");
    // The parent's two requests, then the child's one, each priced; the total holds all three.
    expect(lines).toContainEqual([MODEL, "2,500", "110", "0", "0", "$0.0092"]);
    expect(lines).toContainEqual([MODEL, "2,000", "400", "0", "0", "$0.0120"]);
    expect(lines).toContainEqual(["Total", "4,500", "510", "0", "0", "$0.0212"]);
  });
});
