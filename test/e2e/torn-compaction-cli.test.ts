import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { anthropicProtocolProblems } from "./anthropic-protocol-problems.js";
import { cliEnv, runCli, tempProject } from "./run-cli.js";

const MODEL = "anthropic/claude-active";

interface Compacted {
  server: FakeServer;
  project: string;
  env: NodeJS.ProcessEnv;
  /** The whole session file after the /compact. */
  full: Buffer;
  /** Its size before the /compact wrote the compaction entry and its copies. */
  before: number;
  /** The lines that write added: the compaction entry, then one line per kept copy. */
  written: string[];
}

let compacted: Compacted;

/** A session with three turns and a /compact that summarised the first and kept the other two. */
beforeAll(async () => {
  const server = await startFakeAnthropicServer();
  const { home, project } = await tempProject();
  await mkdir(join(project, ".panto"), { recursive: true });
  // Big enough for the two small recent turns, too small for the first one.
  await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 400 }));
  const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
  const session = join(project, "s.jsonl");
  const prompts = [`p-one ${"a long first question. ".repeat(150)}`, "p-two", "p-three"];
  for (const [index, prompt] of prompts.entries()) {
    server.enqueue({ type: "text", text: `answer ${index + 1}` });
    const seeded = await runCli(["-m", MODEL, "--session", session, "-p", prompt], { cwd: project, env });
    expect(seeded.code, seeded.stderr).toBe(0);
  }
  const before = (await readFile(session)).length;
  server.enqueue({ type: "text", text: "SUMMARY-TORN" });
  const compact = await runCli(["-m", MODEL, "--session", session, "-p", "/compact"], { cwd: project, env });
  expect(compact.code, compact.stderr).toBe(0);
  const full = await readFile(session);
  const written = full
    .subarray(before)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "");
  const compaction = JSON.parse(written[0] ?? "{}") as { type?: string; keptMessages?: number };
  expect(compaction.type).toBe("compaction");
  // p-two and p-three, question and answer each.
  expect(compaction.keptMessages).toBe(4);
  compacted = { server, project, env, full, before, written };
}, 120_000);

afterAll(async () => {
  await compacted?.server.close();
});

let copies = 0;

/** A copy of the compacted session as a crash `landed` bytes into the compaction write left it. */
async function crashedCopy(landed: number) {
  const session = join(compacted.project, `crashed-${++copies}.jsonl`);
  await writeFile(session, compacted.full.subarray(0, compacted.before + landed));
  const run = async (prompt: string) => {
    compacted.server.enqueue({ type: "text", text: `answer to ${prompt}` });
    const result = await runCli(["-m", MODEL, "--session", session, "-p", prompt], {
      cwd: compacted.project,
      env: compacted.env,
    });
    expect(result.code, result.stderr).toBe(0);
    const body = compacted.server.requests.at(-1)?.body;
    expect(anthropicProtocolProblems(body)).toEqual([]);
    return { stderr: result.stderr, sent: JSON.stringify(body) };
  };
  return { session, run };
}

/** Resumes twice (the first run appends, the second must agree) and returns what each one sent. */
async function resumeTwice(landed: number): Promise<string[]> {
  const { session, run } = await crashedCopy(landed);
  const first = await run("p-after-crash");
  expect(first.stderr).toContain(session);
  const second = await run("p-after-that");
  expect(second.sent).toContain("p-after-crash");
  return [first.sent, second.sent];
}

describe("a crash while the compaction was being written", () => {
  it("ignores a compaction entry cut mid-line and resumes from the full conversation before it", async () => {
    const compactionLine = compacted.written[0] ?? "";
    for (const sent of await resumeTwice(Math.floor(compactionLine.length / 2))) {
      expect(sent).not.toContain("SUMMARY-TORN");
      expect(sent).toContain("p-one");
      expect(sent).toContain("p-three");
    }
  });

  it("ignores a complete compaction entry followed by only some of its kept copies", async () => {
    const [compactionLine = "", firstCopy = "", secondCopy = ""] = compacted.written;
    // The entry and one copy landed whole, the second copy only in part.
    const landed = compactionLine.length + 1 + firstCopy.length + 1 + Math.floor(secondCopy.length / 2);
    for (const sent of await resumeTwice(landed)) {
      expect(sent).not.toContain("SUMMARY-TORN");
      expect(sent).toContain("p-one");
      // p-two appears once: its copy after the cut-off compaction is not replayed.
      expect(sent.split("p-two")).toHaveLength(2);
    }
  });

  it("uses the compaction when every copy landed and only the final newline is missing", async () => {
    const { run } = await crashedCopy(compacted.full.length - compacted.before - 1);
    const { sent } = await run("p-after-crash");
    expect(sent).toContain("SUMMARY-TORN");
    expect(sent).not.toContain("p-one");
    expect(sent).toContain("p-three");
  });
});
