import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeReply, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { compactionCliProject } from "../support/compaction-cli-project.js";
import { CLI_PATH, jsonEvents, runCli, sessionLines } from "./run-cli.js";

const closeAfter = closeAfterEach();

const MODEL = "anthropic/claude-active";
/** A first prompt of several thousand tokens, so a budget of 2000 keeps later small turns but not it. */
const BIG_PROMPT = `p-one ${"lorem ipsum dolor sit amet ".repeat(1200)}`;
const bodyText = (request: RecordedRequest): string => JSON.stringify(request.body);
const isCompactionRequest = (request: RecordedRequest): boolean => bodyText(request).includes("<transcript>");
const modelOf = (request: RecordedRequest): unknown => (request.body as { model?: unknown }).model;
const systemOf = (request: RecordedRequest): string =>
  JSON.stringify((request.body as { system?: unknown }).system);

const setup = (config: Record<string, unknown> = {}, extraEnv: Record<string, string> = {}) =>
  compactionCliProject(MODEL, closeAfter, config, extraEnv);

const overflow: FakeReply = {
  type: "error",
  status: 400,
  body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}',
};

describe("compaction_model fallback", () => {
  const failures: Array<[string, FakeReply]> = [
    [
      "unknown model",
      {
        type: "error",
        status: 404,
        body: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-small"}}',
      },
    ],
    ["overflow", overflow],
    [
      "500",
      {
        type: "error",
        status: 500,
        body: '{"type":"error","error":{"type":"api_error","message":"Internal server error"}}',
      },
    ],
    ["empty summary", { type: "text", text: "" }],
  ];
  for (const [name, failure] of failures) {
    it(`falls back to the active model exactly once when compaction_model fails (${name})`, async () => {
      const t = await setup({ compaction_model: "anthropic/claude-small" }, { PANTO_MAX_RETRIES: "2" });
      await t.seed("p-one", "p-two");
      // 500 is retryable: the failing model keeps failing through its retries (1 + 2 attempts).
      const repeat = name === "500" ? 3 : 1;
      t.server.enqueue(
        overflow,
        ...Array.from({ length: repeat }, () => failure),
        { type: "text", text: "SUMMARY-BY-ACTIVE" },
        {
          type: "text",
          text: "final",
        },
      );
      const result = await t.run("p-three", ["--json"]);
      expect(result.code, result.stderr).toBe(0);
      const compactionRequests = t.server.requests.filter(isCompactionRequest);
      const models = compactionRequests.map(modelOf);
      expect(models.at(-1)).toBe("claude-active");
      expect(models.filter((m) => m === "claude-active")).toHaveLength(1);
      expect(new Set(models.slice(0, -1))).toEqual(new Set(["claude-small"]));
      const event = jsonEvents(result.stdout).find((e) => e.type === "compaction");
      expect(event).toMatchObject({ fallback: true, model: MODEL });
    });
  }
});

describe("COMPACTION.md resolution and /compact instructions", () => {
  it("uses project over user over base, and puts /compact arguments only under the spec's heading", async () => {
    const t = await setup();
    await t.seed("p-one", "p-two");
    await writeFile(join(t.home, "COMPACTION.md"), "USER-LEVEL COMPACTION PROMPT\n");
    await writeFile(join(t.project, ".panto", "COMPACTION.md"), "PROJECT-LEVEL COMPACTION PROMPT\n");

    t.server.enqueue({ type: "text", text: "S1" });
    const result = await t.run("/compact keep bugs #3 and #4");
    expect(result.code, result.stderr).toBe(0);
    const request = t.server.requests.at(-1)!;
    const system = systemOf(request);
    expect(system).toContain("PROJECT-LEVEL COMPACTION PROMPT");
    expect(system).not.toContain("USER-LEVEL");
    expect(system).toContain("## Additional instructions for this compaction run");
    expect(system).toContain("keep bugs #3 and #4");
    expect(JSON.stringify((request.body as { messages: unknown }).messages)).not.toContain("keep bugs");

    await rm(join(t.project, ".panto", "COMPACTION.md"));
    await t.seed("p-three");
    t.server.enqueue({ type: "text", text: "S2" });
    expect((await t.run("/compact")).code).toBe(0);
    expect(systemOf(t.server.requests.at(-1)!)).toContain("USER-LEVEL COMPACTION PROMPT");

    await rm(join(t.home, "COMPACTION.md"));
    await t.seed("p-four");
    t.server.enqueue({ type: "text", text: "S3" });
    expect((await t.run("/compact")).code).toBe(0);
    const base = await readFile(new URL("../../assets/COMPACTION.md", import.meta.url), "utf8");
    const firstLine = base.split("\n").find((line) => line.trim() !== "")!;
    expect(systemOf(t.server.requests.at(-1)!)).toContain(JSON.stringify(firstLine).slice(1, -1));

    const lines = await sessionLines(t.session);
    const messages = lines.filter((line) => line.type === "message");
    expect(JSON.stringify(messages)).not.toContain("keep bugs");
  });

  it("reports an empty COMPACTION.md override as an error naming the file, exit 2", async () => {
    const t = await setup();
    await writeFile(join(t.project, ".panto", "COMPACTION.md"), "   \n");
    const result = await t.run("/compact");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(t.project, ".panto", "COMPACTION.md"));
  });
});

describe("the summary request's cost", () => {
  it("is sent without cache breakpoints, so it is billed as input and not as a cache write nothing reads; the agent's requests keep theirs", async () => {
    const t = await setup();
    await t.seed("p-one", "p-two");
    t.server.enqueue({ type: "text", text: "SUMMARY" });
    expect((await t.run("/compact")).code).toBe(0);
    t.server.enqueue({ type: "text", text: "after" });
    expect((await t.run("p-three")).code).toBe(0);
    const summary = t.server.requests.filter(isCompactionRequest);
    expect(summary).toHaveLength(1);
    expect(bodyText(summary[0]!)).not.toContain("cache_control");
    const next = t.server.requests.at(-1)!;
    expect(isCompactionRequest(next)).toBe(false);
    expect(bodyText(next)).toContain('"cache_control":{"type":"ephemeral"}');
  });
});

describe("chained compactions and resume", () => {
  it("passes exactly the latest summary as <previous-summary> on a second compaction", async () => {
    const t = await setup();
    await t.seed("p-one", "p-two");
    t.server.enqueue({ type: "text", text: "SUMMARY-FIRST" });
    expect((await t.run("/compact")).code).toBe(0);
    await t.seed("p-three");
    t.server.enqueue({ type: "text", text: "SUMMARY-SECOND" });
    expect((await t.run("/compact")).code).toBe(0);
    await t.seed("p-four");
    t.server.enqueue({ type: "text", text: "SUMMARY-THIRD" });
    expect((await t.run("/compact")).code).toBe(0);

    const compactions = t.server.requests
      .filter(isCompactionRequest)
      .map((request) => JSON.stringify((request.body as { messages: unknown }).messages));
    expect(compactions).toHaveLength(3);
    expect(compactions[0]).not.toContain("<previous-summary>");
    expect(compactions[2]!.split("<previous-summary>")).toHaveLength(2);
    expect(compactions[2]).toContain("SUMMARY-SECOND");
    expect(compactions[2]).not.toContain("SUMMARY-FIRST");
    expect(compactions[2]).toContain("p-four");
    expect(compactions[2]).not.toContain("p-one");
  });

  it("--continue after a compaction sends the summary plus kept turns only", async () => {
    const t = await setup({ keep_verbatim_tokens: 2000 });
    // Sessions in the default place, as a user who never names one gets them.
    const runDefault = (prompt: string, extra: string[] = []) =>
      runCli(["-m", MODEL, ...extra, "-p", prompt], { cwd: t.project, env: t.env });
    t.server.enqueue({ type: "text", text: "answer one" });
    expect((await runDefault(BIG_PROMPT)).code).toBe(0);
    for (const prompt of ["p-two", "p-three"]) {
      t.server.enqueue({ type: "text", text: `answer to ${prompt}` });
      expect((await runDefault(prompt, ["-c"])).code).toBe(0);
    }
    t.server.enqueue({ type: "text", text: "SUMMARY-X" });
    const compact = await runDefault("/compact", ["-c"]);
    expect(compact.code, compact.stderr).toBe(0);

    t.server.enqueue({ type: "text", text: "continued" });
    const result = await runCli(["-m", MODEL, "-c", "-p", "p-next"], { cwd: t.project, env: t.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("continued");
    const sent = bodyText(t.server.requests.at(-1)!);
    expect(sent).toContain("SUMMARY-X");
    expect(sent).toContain("p-next");
    expect(sent).toContain("p-three");
    expect(sent).not.toContain("p-one");
  });
});

/** Starts the CLI, waits until the fake server has received `requestCount` requests, then SIGKILLs it. */
async function killDuring(args: string[], t: Awaited<ReturnType<typeof setup>>, requestCount: number) {
  const child = spawn(process.execPath, [CLI_PATH, ...args], { cwd: t.project, env: t.env, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("close", () => resolve()));
  for (let i = 0; i < 400 && t.server.requests.length < requestCount; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(t.server.requests.length).toBe(requestCount);
  child.kill("SIGKILL");
  await exited;
}

describe("SIGKILL and resume", () => {
  it("loses no acknowledged message when killed while streaming, and the resume works", async () => {
    const t = await setup();
    await t.seed("p-one");
    t.server.enqueue({ type: "hang" });
    await killDuring(["-m", MODEL, "--session", t.session, "-p", "p-killed"], t, 2);

    t.server.enqueue({ type: "text", text: "resumed fine" });
    const result = await t.run("p-after");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("resumed fine");
    const sent = bodyText(t.server.requests.at(-1)!);
    expect(sent).toContain("p-one");
    expect(sent).toContain("answer to p-one");
    expect(sent).toContain("p-killed");
  });

  it("leaves the effective context as it was when killed during a compaction", async () => {
    const t = await setup();
    await t.seed("p-one", "p-two");
    t.server.enqueue({ type: "hang" });
    await killDuring(["-m", MODEL, "--session", t.session, "-p", "/compact"], t, 3);
    const lines = await sessionLines(t.session);
    expect(lines.some((line) => line.type === "compaction")).toBe(false);

    t.server.enqueue({ type: "text", text: "still here" });
    const result = await t.run("p-three");
    expect(result.code, result.stderr).toBe(0);
    const sent = bodyText(t.server.requests.at(-1)!);
    expect(sent).toContain("p-one");
    expect(sent).toContain("p-two");
  });
});

describe("tool calls through a whole turn", () => {
  it("runs a tool call, sends its result back, and a later compaction keeps the pair intact", async () => {
    const t = await setup({ keep_verbatim_tokens: 100_000 });
    await writeFile(join(t.project, "notes.txt"), "the secret word is PAPAYA\n");
    await t.seed(BIG_PROMPT);
    t.server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_read1", name: "read", arguments: { path: "notes.txt" } }] },
      { type: "text", text: "The word is PAPAYA." },
    );
    const toolRun = await t.run("read notes.txt", ["--json"]);
    expect(toolRun.code, toolRun.stderr).toBe(0);
    const events = jsonEvents(toolRun.stdout);
    expect(events.find((e) => e.type === "tool_call")).toMatchObject({ name: "read" });
    expect(events.find((e) => e.type === "tool_result")).toMatchObject({ is_error: false });
    expect(bodyText(t.server.requests.at(-1)!)).toContain("PAPAYA");

    // The big first turn does not fit the budget; the tool turn and the turn in flight do.
    await writeFile(join(t.project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 2000 }));
    t.server.enqueue(overflow, { type: "text", text: "SUMMARY-T" }, { type: "text", text: "ok" });
    const result = await t.run("p-next");
    expect(result.code, result.stderr).toBe(0);
    const retry = t.server.requests.at(-1)!.body as { messages: Array<{ role: string; content: unknown }> };
    const text = JSON.stringify(retry.messages);
    expect(text).toContain("SUMMARY-T");
    expect(text).toContain("toolu_read1");
    const uses = (text.match(/"type":"tool_use"/g) ?? []).length;
    const results = (text.match(/"type":"tool_result"/g) ?? []).length;
    expect(uses).toBe(results);
    expect(uses).toBe(1);
  });
});
