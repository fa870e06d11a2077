import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeOpenAIResponsesServer } from "../../src/simulator/fake-openai-responses-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto, type Sandbox } from "./panto-process.js";

const FIXTURES = fileURLToPath(new URL("../import/fixtures/", import.meta.url));
const CLAUDE = join(FIXTURES, "claude-code-session.jsonl");
const CODEX = join(FIXTURES, "codex-rollout.jsonl");
const PI = join(FIXTURES, "pi-session.jsonl");
const SUMMARY = "SUMMARY-AFTER-IMPORT: the imported work and the new question.";
const OVERFLOW_BODY = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 212345 tokens > 200000 maximum" },
});

const OPENAI_OVERFLOW_BODY = JSON.stringify({
  error: {
    message: "Your input exceeds the context window of this model. Please adjust your input and try again.",
    type: "invalid_request_error",
    param: "input",
    code: "context_length_exceeded",
  },
});

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function sessionFiles(box: Sandbox): Promise<string[]> {
  const root = join(box.home, "sessions");
  const folders = await readdir(root).catch(() => []);
  const files: string[] = [];
  for (const folder of folders)
    for (const name of await readdir(join(root, folder)))
      if (name.endsWith(".jsonl") && !name.startsWith("index")) files.push(join(root, folder, name));
  return files;
}

/** The first session of an import report printed with --json. */
function firstSession(stdout: string): Record<string, unknown> | undefined {
  const sessions = jsonLines(stdout)[0]?.sessions;
  return Array.isArray(sessions) ? (sessions[0] as Record<string, unknown>) : undefined;
}

function requestText(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? "");
}

/** Overflows the first request carrying the new question without the new summary. */
function responder(request: RecordedRequest, overflowBody: string): FakeReply {
  const text = requestText(request);
  if (text.includes("<transcript>")) return { type: "text", text: SUMMARY };
  if (text.includes("overflowing question") && !text.includes("SUMMARY-AFTER-IMPORT"))
    return { type: "error", status: 400, body: overflowBody };
  return { type: "text", text: "The answer after the import." };
}

/** Each source resumed against the fake server of the API its answers came from. */
const RESUMES = [
  {
    format: "claude-code",
    fixture: CLAUDE,
    start: startFakeAnthropicServer,
    env: (url: string) => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: url }),
    overflowBody: OVERFLOW_BODY,
    model: "anthropic/claude-sonnet-4-5-20250929",
    summary: "showed a screenshot of a login form",
    lastTurn: "Now add a test for app.ts",
  },
  {
    format: "codex",
    fixture: CODEX,
    start: startFakeOpenAIResponsesServer,
    env: (url: string) => ({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: url }),
    overflowBody: OPENAI_OVERFLOW_BODY,
    model: "openai/gpt-5-codex",
    summary: "a diagram of a three-stage pipeline",
    lastTurn: "Add a CHANGELOG",
  },
  {
    format: "pi",
    fixture: PI,
    start: startFakeAnthropicServer,
    env: (url: string) => ({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: url }),
    overflowBody: OVERFLOW_BODY,
    model: "anthropic/claude-sonnet-4-5",
    summary: "one in src/a.ts line 3",
    lastTurn: "Fix the TODO",
  },
];

describe("panto import (built CLI)", { timeout: 180_000 }, () => {
  it("imports a session once, reports it as JSON naming the truncated line, and finds it on a second import", async () => {
    const box = await makeSandbox();
    const first = await runPanto(["import", CLAUDE, "--json"], { cwd: box.project, env: box.env });
    expect(first.code).toBe(0);
    const [report] = jsonLines(first.stdout);
    expect(report).toMatchObject({ type: "import", dry_run: false, failed: [], unrecognised: [] });
    const session = firstSession(first.stdout);
    expect(session).toMatchObject({
      source: CLAUDE,
      format: "claude-code",
      status: "imported",
      source_session_id: "cc-session-1",
      turns: 3,
      tool_calls: 2,
      tool_results: 2,
      thinking: 1,
      images: 1,
      compactions: 1,
      notes: 4,
      unknown: { "claude-code file-history-snapshot": 1 },
    });
    expect(first.stderr).toContain(`${CLAUDE}, line 18: incomplete last line`);
    expect(await sessionFiles(box)).toEqual([session?.session_path]);
    const header = JSON.parse((await readFile(String(session?.session_path), "utf8")).split("\n")[0] ?? "");
    expect(header.parent).toMatchObject({
      id: "cc-session-1",
      path: CLAUDE,
      relation: "import",
      format: "claude-code",
    });

    const again = await runPanto(["import", CLAUDE], { cwd: box.project, env: box.env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      `Already imported: ${CLAUDE} is session ${String(session?.session_id).slice(0, 8)}`,
    );
    expect(await sessionFiles(box)).toHaveLength(1);
  });

  it("--dry-run says what a folder would give and writes nothing; a file that is no session is a usage error naming it", async () => {
    const box = await makeSandbox();
    const folder = join(box.root, "sources");
    await mkdir(join(folder, "2025", "10"), { recursive: true });
    await copyFile(CODEX, join(folder, "2025", "10", "rollout-2025-10-01T10-00-00-x.jsonl"));
    await copyFile(PI, join(folder, "pi.jsonl"));
    await writeFile(join(folder, "notes.jsonl"), '{"note":"not a session"}\n');
    const dry = await runPanto(["import", folder, "--dry-run"], { cwd: box.project, env: box.env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Would import codex session .*rollout-2025-10-01T10-00-00-x\.jsonl/);
    expect(dry.stdout).toMatch(/Would import pi session .*pi\.jsonl/);
    expect(dry.stdout).toContain("1 compaction (3 kept copies)");
    expect(dry.stdout).toContain("1 file under");
    expect(await sessionFiles(box)).toEqual([]);

    const bad = await runPanto(["import", join(folder, "notes.jsonl")], { cwd: box.project, env: box.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      `${join(folder, "notes.jsonl")}: not a Claude Code, Codex or pi session (line 1`,
    );
    const missing = await runPanto(["import", join(folder, "nope.jsonl"), "--json"], {
      cwd: box.project,
      env: box.env,
    });
    expect(missing.code).toBe(2);
    expect(jsonLines(missing.stdout)[0]).toMatchObject({ type: "error", code: "usage" });
  });

  it.each(RESUMES)(
    "an imported $format session resumes with -p -r ID, overflows, compacts over the imported summary and retries like a native one",
    async (source) => {
      const box = await makeSandbox();
      const overflow = source.overflowBody;
      server = await source.start({ responder: (request) => responder(request, overflow) });
      await mkdir(join(box.project, ".panto"));
      await writeFile(
        join(box.project, ".panto", "config.json"),
        JSON.stringify({ keep_verbatim_tokens: 10 }),
      );
      const env = { ...box.env, ...source.env(server.url) };
      const imported = await runPanto(["import", source.fixture, "--json"], { cwd: box.project, env });
      const session = firstSession(imported.stdout);
      const id = String(session?.session_id).slice(0, 8);

      const run = await runPanto(["-p", "--json", "-r", id, "the overflowing question"], {
        cwd: box.project,
        env,
      });
      expect(run.code, run.stderr).toBe(0);
      const events = jsonLines(run.stdout);
      // The model the source last used is restored from the imported answers.
      expect(events[0]).toMatchObject({ type: "session_started", model: source.model });
      expect(events.find((event) => event.type === "compaction")).toMatchObject({
        trigger: "overflow",
        turns_summarised: 1,
      });
      expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0 });
      // The first request carried the imported block and the turn after it; the summary request got
      // the imported summary as the previous one; the retry carries the new summary only.
      const bodies = server.requests.map(requestText);
      expect(bodies[0]).toContain(source.summary);
      expect(bodies[0]).toContain(source.lastTurn);
      const summaryRequest = bodies.find((body) => body.includes("<transcript>")) ?? "";
      expect(summaryRequest).toMatch(new RegExp(`<previous-summary>[\\s\\S]*${source.summary}`));
      expect(summaryRequest).toContain(source.lastTurn);
      const retry = bodies.at(-1) ?? "";
      expect(retry).toContain("SUMMARY-AFTER-IMPORT");
      expect(retry).toContain("the overflowing question");
      expect(retry).not.toContain(source.lastTurn);
      // The new compaction numbers its turns after the imported ones: 3 imported, the 4th in flight.
      const lines = (await readFile(String(session?.session_path), "utf8")).trimEnd().split("\n");
      const compactions = lines
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.type === "compaction");
      expect(compactions.at(-1)).toMatchObject({
        trigger: "overflow",
        turns: { through: 3, kept: [4], total: 4 },
      });
      expect(run.stderr).not.toContain("could not be read");
    },
  );

  it("the imported turns a source compaction summarised stay on record: recall finds and reads them back by number", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer({});
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_r1", name: "recall", arguments: { query: "two fields" } }] },
      { type: "tool-calls", calls: [{ id: "toolu_r2", name: "recall", arguments: { turn: 2 } }] },
      { type: "text", text: "It was a login form with two fields." },
    );
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const imported = await runPanto(["import", CLAUDE, "--json"], { cwd: box.project, env });
    const id = String(firstSession(imported.stdout)?.session_id).slice(0, 8);
    const run = await runPanto(["-p", "-r", id, "what did the screenshot show?"], { cwd: box.project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("It was a login form with two fields.");
    const [search, read, answer] = server.requests.map(requestText);
    expect(search).toContain("This summary stands for turns 1 to 2 of this session.");
    expect(read).toMatch(/turn 2 [^"]*assistant · summarised/);
    expect(answer).toContain("Turn 2 of this session");
    expect(answer).toContain("A login form with two fields.");
    expect(run.stderr).not.toContain("could not be read");
  });
});
