import { mkdir, readFile, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { anthropicProtocolProblems } from "./anthropic-protocol-problems.js";
import { cliEnv, runCli, tempProject } from "./run-cli.js";

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const MODEL = "anthropic/claude-active";

/** A session with three turns and a /compact that summarised the first and kept the other two. */
async function compactedSession() {
  const server = await startFakeAnthropicServer();
  servers.push(server);
  const { home, project } = await tempProject();
  await mkdir(join(project, ".panto"), { recursive: true });
  // Big enough for the two small recent turns, too small for the first one.
  await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 400 }));
  const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
  const session = join(project, "s.jsonl");
  const run = (prompt: string) =>
    runCli(["-m", MODEL, "--session", session, "-p", prompt], { cwd: project, env });
  for (const [index, prompt] of [
    `p-one ${"a long first question. ".repeat(150)}`,
    "p-two",
    "p-three",
  ].entries()) {
    server.enqueue({ type: "text", text: `answer ${index + 1}` });
    const seeded = await run(prompt);
    expect(seeded.code, seeded.stderr).toBe(0);
  }
  const before = (await readFile(session)).length;
  server.enqueue({ type: "text", text: "SUMMARY-TORN" });
  const compact = await run("/compact");
  expect(compact.code, compact.stderr).toBe(0);
  const text = await readFile(session, "utf8");
  const written = text
    .slice(before)
    .split("\n")
    .filter((line) => line !== "");
  const compaction = JSON.parse(written[0] ?? "{}") as { type?: string; keptMessages?: number };
  expect(compaction.type).toBe("compaction");
  // p-two and p-three, question and answer each.
  expect(compaction.keptMessages).toBe(4);
  return { server, session, run, before, written };
}

/** Resumes twice (the first run appends, the second must agree) and returns what each one sent. */
async function resumeTwice(t: Awaited<ReturnType<typeof compactedSession>>) {
  const sent: string[] = [];
  for (const prompt of ["p-after-crash", "p-after-that"]) {
    t.server.enqueue({ type: "text", text: `answer to ${prompt}` });
    const result = await t.run(prompt);
    expect(result.code, result.stderr).toBe(0);
    const body = t.server.requests.at(-1)?.body;
    expect(anthropicProtocolProblems(body)).toEqual([]);
    sent.push(JSON.stringify(body));
    if (prompt === "p-after-crash") expect(result.stderr).toContain(t.session);
  }
  return sent;
}

describe("a crash while the compaction was being written", () => {
  it("ignores a compaction entry cut mid-line and resumes from the full conversation before it", async () => {
    const t = await compactedSession();
    const compactionLine = t.written[0] ?? "";
    await truncate(t.session, t.before + Math.floor(compactionLine.length / 2));
    const sent = await resumeTwice(t);
    for (const body of sent) {
      expect(body).not.toContain("SUMMARY-TORN");
      expect(body).toContain("p-one");
      expect(body).toContain("p-three");
    }
    expect(sent[1]).toContain("p-after-crash");
  });

  it("ignores a complete compaction entry followed by only some of its kept copies", async () => {
    const t = await compactedSession();
    const [compactionLine = "", firstCopy = "", secondCopy = ""] = t.written;
    // The entry and one copy landed whole, the second copy only in part.
    const landed = compactionLine.length + 1 + firstCopy.length + 1 + Math.floor(secondCopy.length / 2);
    await truncate(t.session, t.before + landed);
    const sent = await resumeTwice(t);
    for (const body of sent) {
      expect(body).not.toContain("SUMMARY-TORN");
      expect(body).toContain("p-one");
      // p-two appears once: its copy after the cut-off compaction is not replayed.
      expect(body.split("p-two")).toHaveLength(2);
    }
    expect(sent[1]).toContain("p-after-crash");
  });

  it("uses the compaction when every copy landed and only the final newline is missing", async () => {
    const t = await compactedSession();
    const size = (await readFile(t.session)).length;
    await truncate(t.session, size - 1);
    t.server.enqueue({ type: "text", text: "fine" });
    const result = await t.run("p-after-crash");
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.stringify(t.server.requests.at(-1)?.body);
    expect(body).toContain("SUMMARY-TORN");
    expect(body).not.toContain("p-one");
    expect(body).toContain("p-three");
  });
});
