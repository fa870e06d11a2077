import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Message } from "../../src/core/index.js";
import { newSessionPath } from "../../src/session/index.js";
import { contextEchoResponder } from "../../src/simulator/context-echo-responder.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { recallReaderResponder } from "../../src/simulator/recall-reader-responder.js";
import {
  INSTRUCTIONS,
  LOSSY_SUMMARY,
  type SessionPlan,
  SUMMARISED_COMMANDS,
  SUMMARISED_ERRORS,
  SUMMARISED_PATHS,
  writeFidelitySession,
} from "../fidelity/fidelity-session.js";
import { makeSandbox, runPanto, type Sandbox } from "./panto-process.js";

const API_KEY = "sk-fidelity-test-key-0123456789";
let servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

interface FactJson {
  kind: string;
  text: string;
  in_summary: boolean;
  in_block: boolean;
  answered: boolean | null;
  answered_recall: boolean | null;
  answered_full: boolean | null;
}

interface FidelityJson {
  type: string;
  session: string;
  compaction: { trigger: string; model: string; fresh: boolean };
  facts: FactJson[];
  totals: Record<string, number | null>;
  requests: number;
}

interface Setup {
  box: Sandbox;
  server: FakeServer;
  env: NodeJS.ProcessEnv;
  path: string;
}

/** A sandbox whose project has one session written per `plan`, and a fake OpenAI-compatible reader. */
async function setup(
  plan: SessionPlan,
  config: Record<string, unknown> = {},
  responder: (request: RecordedRequest) => FakeReply = contextEchoResponder(),
): Promise<Setup> {
  const box = await makeSandbox();
  const server = await startFakeOpenAIChatServer({ responder });
  servers.push(server);
  await writeFile(
    join(box.home, "config.json"),
    JSON.stringify({
      model: "fake/gpt-test",
      providers: { fake: { base_url: server.url, api: "openai-chat", api_key_env: "FAKE_API_KEY" } },
      ...config,
    }),
    "utf8",
  );
  const path = newSessionPath(box.home, box.project);
  await writeFidelitySession(path, box.project, plan);
  const env = { ...box.env, FAKE_API_KEY: API_KEY };
  return { box, server, env, path };
}

async function fidelity(
  args: string[],
  where: Setup,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runPanto(["fidelity", ...args], { cwd: where.box.project, env: where.env });
}

function factsOf(report: FidelityJson, test: (fact: FactJson) => boolean): string[] {
  return report.facts.filter(test).map((fact) => fact.text);
}

describe("panto fidelity (built CLI)", { timeout: 60_000 }, () => {
  it("lists exactly the paths, commands and errors a scripted summary dropped as lost", async () => {
    const where = await setup({ summary: LOSSY_SUMMARY });
    const run = await fidelity(["--json"], where);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FidelityJson;
    expect(report).toMatchObject({
      type: "fidelity",
      compaction: { trigger: "manual", model: "fake/gpt-summariser", fresh: false },
      requests: 0,
    });
    expect(factsOf(report, (fact) => fact.kind === "path")).toEqual(SUMMARISED_PATHS);
    expect(factsOf(report, (fact) => fact.kind === "command")).toEqual(SUMMARISED_COMMANDS);
    expect(factsOf(report, (fact) => fact.kind === "error")).toEqual(SUMMARISED_ERRORS);
    expect(factsOf(report, (fact) => fact.kind === "instruction")).toEqual(INSTRUCTIONS);
    expect(factsOf(report, (fact) => !fact.in_block)).toEqual([
      SUMMARISED_PATHS[1],
      SUMMARISED_COMMANDS[1],
      SUMMARISED_ERRORS[1],
      INSTRUCTIONS[3],
    ]);
    expect(
      report.facts.every(
        (fact) => fact.answered === null && fact.answered_recall === null && fact.answered_full === null,
      ),
    ).toBe(true);
    expect(report.totals).toEqual({
      facts: 10,
      in_summary: 6,
      in_block: 6,
      answered: null,
      answered_recall: null,
      answered_full: null,
    });
  });

  it("counts restored facts in the block, not in the summary, so in_block is whole for them", async () => {
    const where = await setup({
      summary: LOSSY_SUMMARY,
      restore: true,
      pins: ["Never touch package-lock.json."],
    });
    const report = JSON.parse((await fidelity(["--json"], where)).stdout) as FidelityJson;
    expect(report.facts.every((fact) => fact.in_block)).toBe(true);
    expect(factsOf(report, (fact) => !fact.in_summary)).toEqual([
      SUMMARISED_PATHS[1],
      SUMMARISED_COMMANDS[1],
      SUMMARISED_ERRORS[1],
      INSTRUCTIONS[3],
    ]);
    const text = await fidelity([], where);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^total\s+10\s+6 \(60%\)\s+10 \(100%\)\s+-\s+-\s+-$/m);
    expect(text.stdout).toContain("Restored (the summary left them out; the block carries them verbatim):");
    expect(text.stdout).not.toContain("Lost (");
  });

  it("probes a reader that knows only its context: answered follows the compacted context, the full one knows all", async () => {
    const where = await setup({ summary: LOSSY_SUMMARY });
    const run = await fidelity(["--probe", "--baseline", "--json"], where);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^panto fidelity: 3 model requests, about [\d,]+ tokens in all \(a probe after the compacted context: about [\d,]+ tokens; a probe after the compacted context with recall \(its first request; up to 12 while it calls recall\): about [\d,]+ tokens; a probe after the full context: about [\d,]+ tokens\)\n$/,
    );
    const report = JSON.parse(run.stdout) as FidelityJson;
    // This reader never calls recall: with it available, it answers as without it.
    expect(report.requests).toBe(3);
    for (const fact of report.facts) {
      expect(fact.answered, fact.text).toBe(fact.in_block);
      expect(fact.answered_recall, fact.text).toBe(fact.in_block);
      expect(fact.answered_full, fact.text).toBe(true);
    }
    expect(report.totals).toMatchObject({ answered: 6, answered_recall: 6, answered_full: 10 });
    const [compacted, withRecall, full] = where.server.requests.map(
      (request) => (request.body as { messages: Array<{ role: string; content: unknown }> }).messages,
    );
    const question = String(compacted?.at(-1)?.content);
    expect(question).toContain("PATHS:");
    expect(full?.at(-1)?.content).toBe(question);
    expect(String(withRecall?.at(-1)?.content)).toContain("You may call the recall tool");
    for (const fact of report.facts) expect(question).not.toContain(fact.text);
    expect(JSON.stringify(compacted)).toContain("<conversation-summary>");
    expect(JSON.stringify(full)).not.toContain("<conversation-summary>");
  });

  it("answers with recall as often as from the full context when the reader reads the summarised turns back", async () => {
    const where = await setup(
      { summary: LOSSY_SUMMARY, turns: { through: 2, kept: [3], total: 3 } },
      {},
      recallReaderResponder(),
    );
    const run = await fidelity(["--probe", "--baseline", "--json"], where);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as FidelityJson;
    expect(report.totals).toEqual({
      facts: 10,
      in_summary: 6,
      in_block: 6,
      answered: 6,
      answered_recall: 10,
      answered_full: 10,
    });
    // compacted probe, probe with recall (its recall call, then its answer), full probe
    expect(report.requests).toBe(4);
    const recallResult = JSON.stringify(where.server.requests[2]?.body);
    expect(recallResult).toContain("Turns 1 to 2 of this session (of 3)");
    expect(recallResult).toContain(SUMMARISED_ERRORS[1]);
    const text = await fidelity(["--probe", "--baseline"], where);
    expect(text.stdout).toMatch(
      /^kind\s+facts\s+in summary\s+in block\s+answered\s+answered \(recall\)\s+answered \(full\)$/m,
    );
    expect(text.stdout).toMatch(
      /^total\s+10\s+6 \(60%\)\s+6 \(60%\)\s+6 \(60%\)\s+10 \(100%\)\s+10 \(100%\)$/m,
    );
  });

  it("--fresh compacts the current context with the configured summariser, writes nothing, and leaves the file byte-identical", async () => {
    const where = await setup(
      { summary: LOSSY_SUMMARY, after: [user("Also add a changelog entry."), reply("Added CHANGELOG.md.")] },
      { compaction_model: "fake/gpt-summariser", keep_verbatim_tokens: 1 },
    );
    const before = await readFile(where.path);
    where.server.enqueue({ type: "text", text: "Added a changelog entry after the lint fixes." });
    const run = await fidelity(["--fresh", "--probe", "--json"], where);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^panto fidelity: 3 model requests, about [\d,]+ tokens in all \(the summary, by fake\/gpt-summariser \(fake\/gpt-test once more if it fails\): about [\d,]+ tokens; a probe after the compacted context/,
    );
    const report = JSON.parse(run.stdout) as FidelityJson;
    expect(report.compaction).toEqual({ trigger: "manual", model: "fake/gpt-summariser", fresh: true });
    expect(report.requests).toBe(3);
    expect((await readFile(where.path)).equals(before)).toBe(true);
    const [summaryRequest] = where.server.requests;
    expect((summaryRequest?.body as { model?: string } | undefined)?.model).toBe("gpt-summariser");
    expect(JSON.stringify(summaryRequest?.body)).toContain("<previous-summary>");
  });

  it("--prompt and --compaction-model try another COMPACTION.md and summariser without touching session or config", async () => {
    const where = await setup(
      { summary: LOSSY_SUMMARY, after: [user("Also add a changelog entry."), reply("Added CHANGELOG.md.")] },
      { keep_verbatim_tokens: 1 },
    );
    const prompt = join(where.box.root, "TRY.md");
    await writeFile(prompt, "Summarise in one line. List every path verbatim.\n", "utf8");
    const config = await readFile(join(where.box.home, "config.json"));
    const before = await readFile(where.path);
    where.server.enqueue({ type: "text", text: "Paths: src/date.ts, src/util.ts." });
    const run = await fidelity(
      ["--fresh", "--prompt", prompt, "--compaction-model", "fake/gpt-other", "--json"],
      where,
    );
    expect(run.stderr).toMatch(/^panto fidelity: 1 model request, /);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as FidelityJson;
    expect(report.compaction).toMatchObject({ model: "fake/gpt-other", fresh: true });
    const body = where.server.requests[0]?.body as {
      model: string;
      messages: Array<{ role: string; content: string }>;
    };
    expect(body.model).toBe("gpt-other");
    expect(body.messages[0]).toMatchObject({
      role: "system",
      content: "Summarise in one line. List every path verbatim.\n",
    });
    expect((await readFile(where.path)).equals(before)).toBe(true);
    expect((await readFile(join(where.box.home, "config.json"))).equals(config)).toBe(true);
  });

  it("is described by panto --help and panto fidelity --help", async () => {
    const where = await setup({});
    const help = await runPanto(["--help"], { cwd: where.box.project, env: where.env });
    expect(help.stdout).toContain("panto fidelity [SESSION] [--fresh] [--prompt FILE]");
    expect(help.stdout).toContain('{type: "fidelity", session, compaction: {trigger, model, fresh},');
    const own = await fidelity(["--help"], where);
    expect(own.code).toBe(0);
    for (const flag of [
      "--fresh",
      "--prompt <file>",
      "--compaction-model",
      "--probe",
      "--baseline",
      "--json",
    ])
      expect(own.stdout).toContain(flag);
  });

  it("exits 2 for a session with no compaction, and for bad arguments", async () => {
    const where = await setup({});
    const run = await fidelity([], where);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("has no compaction in effect; panto fidelity --fresh checks a new one");
    for (const args of [
      ["--prompt", "x.md"],
      ["--compaction-model", "fake/x"],
      ["--baseline"],
      ["--bogus"],
    ]) {
      const bad = await fidelity(args, where);
      expect(bad.code, args.join(" ")).toBe(2);
      expect(bad.stdout).toBe("");
    }
    const fresh = await fidelity(["--fresh"], where);
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).toContain("--fresh: nothing to compact (the whole conversation (about");
    const unknown = await fidelity(["zzzz"], where);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('fidelity: no session id or file name starts with "zzzz"');
    expect(where.server.requests).toHaveLength(0);
  });

  it("keeps facts with quotes, unicode and very long commands whole, and redacts known keys from what it prints", async () => {
    const long = `node scripts/migrate.js ${Array.from({ length: 300 }, (_, index) => `--table=t${index}`).join(" ")}`;
    const quoted = `grep -rn "héllo 'wörld'" docs/日本語.md`;
    const before: Message[] = [
      user(`Migrate every table. Use the key ${API_KEY} for the staging database.`),
      reply("", [call("q1", "bash", { command: quoted }), call("q2", "bash", { command: long })]),
      {
        role: "tool",
        content: [
          toolResult("q1", `grep: docs/日本語.md: "No such file" ✗`, true),
          toolResult("q2", "migrated 300 tables", false),
        ],
      },
      reply("", [call("q3", "read", { path: "docs/日本語.md" })]),
      { role: "tool", content: [toolResult("q3", "# 日本語", false)] },
      reply("Done."),
      user("Thanks."),
      reply("You are welcome."),
    ];
    const where = await setup({
      before,
      summary: `Ran ${quoted} and the migration \`${long}\`; read ./docs/日本語.md.`,
    });
    const run = await fidelity([where.path, "--json", "--probe"], where);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(API_KEY);
    expect(run.stdout).toContain("[redacted FAKE_API_KEY]");
    const report = JSON.parse(run.stdout) as FidelityJson;
    expect(report.facts.filter((fact) => fact.kind !== "instruction")).toEqual([
      {
        kind: "path",
        text: "docs/日本語.md",
        in_summary: true,
        in_block: true,
        answered: true,
        answered_recall: true,
        answered_full: null,
      },
      {
        kind: "command",
        text: quoted,
        in_summary: true,
        in_block: true,
        answered: true,
        answered_recall: true,
        answered_full: null,
      },
      {
        kind: "command",
        text: long,
        in_summary: true,
        in_block: true,
        answered: true,
        answered_recall: true,
        answered_full: null,
      },
      {
        kind: "error",
        text: `grep: docs/日本語.md: "No such file" ✗`,
        in_summary: false,
        in_block: false,
        answered: false,
        answered_recall: false,
        answered_full: null,
      },
    ]);
  });
});

function user(text: string): Message {
  return { role: "user", content: [{ type: "text", text }] };
}

function reply(text: string, calls: ReturnType<typeof call>[] = []): Message {
  return {
    role: "assistant",
    content: [...(text === "" ? [] : [{ type: "text" as const, text }]), ...calls],
    provider: "openai",
    api: "openai-chat",
    model: "gpt-test",
    stopReason: calls.length === 0 ? "stop" : "tool-use",
  };
}

function call(id: string, name: string, args: Record<string, unknown>) {
  return { type: "tool-call" as const, id, name, arguments: args };
}

function toolResult(id: string, text: string, isError: boolean) {
  return {
    type: "tool-result" as const,
    toolCallId: id,
    toolName: "bash",
    content: [{ type: "text" as const, text }],
    isError,
  };
}
