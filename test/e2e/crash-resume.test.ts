import { access, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { anthropicProtocolProblems } from "./anthropic-protocol-problems.js";
import { type KilledRun, type KillMoment, runAndKill } from "./kill-cli.js";
import { cliEnv, runCli, tempProject } from "./run-cli.js";

/**
 * Fixed, so a failure replays exactly the same kill moments. Chosen so that, whatever the timing,
 * some runs die only after acknowledging a tool result, an overflow compaction (also one in the
 * middle of a tool turn) and a /compact, and others die during start-up.
 */
const SEED = 0x5eed_c14a;
/** Runs to kill; a run that finishes before its moment comes (a short text answer) counts too. */
const KILLED_RUNS = 16;
const MODEL = "anthropic/claude-active";
/** About a hundred tokens of prompt per turn, so compaction keeps a few recent turns and summarises the rest. */
const FILLER = "please keep this sentence in mind while we work. ".repeat(8);

/** mulberry32: a tiny seeded PRNG, enough to pick scenarios and kill moments reproducibly. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const overflow: FakeReply = {
  type: "error",
  status: 400,
  body: '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 219898 tokens > 200000 maximum"}}',
};

interface Scenario {
  name: string;
  prompt: string;
  script: FakeReply[];
}

/** Scripts for one killed run; every text the model "writes" is unique, so the session file can be searched for it. */
function scenarioFor(run: number, pick: number): Scenario {
  let step = 0;
  let summaries = 0;
  const read = (calls: number): FakeReply => {
    step++;
    return {
      type: "tool-calls",
      text: `r${run}-s${step} reading`,
      calls: Array.from({ length: calls }, (_, k) => ({
        id: `toolu_r${run}_s${step}_${k}`,
        name: "read",
        arguments: { path: "notes.txt" },
      })),
    };
  };
  const say = (): FakeReply => ({ type: "text", text: `r${run}-s${++step} done` });
  const summary = (): FakeReply => ({ type: "text", text: `SUMMARY-r${run}-${++summaries}` });
  const prompt = `r${run} ${FILLER}`;
  const hang: FakeReply = { type: "hang" };
  const scenarios: Array<() => Scenario> = [
    () => ({ name: "text", prompt, script: [say()] }),
    () => ({ name: "tools", prompt, script: [read(1), read(2), hang] }),
    () => ({ name: "overflow", prompt, script: [overflow, summary(), read(1), hang] }),
    () => ({ name: "overflow mid-turn", prompt, script: [read(1), overflow, summary(), read(2), say()] }),
    () => ({ name: "killed while summarising", prompt, script: [overflow, hang] }),
    () => ({ name: "/compact", prompt: "/compact", script: [summary()] }),
    () => ({ name: "/compact hanging", prompt: "/compact", script: [hang] }),
  ];
  return (scenarios[pick % scenarios.length] as () => Scenario)();
}

function killMomentFor(random: () => number): KillMoment {
  const roll = random();
  if (roll < 0.5)
    return { after: "event", count: 1 + Math.floor(random() * 7), extraMs: Math.floor(random() * 20) };
  if (roll < 0.85) return { after: "start", ms: Math.floor(random() * 120) };
  return { after: "spawn", ms: Math.floor(random() * 600) };
}

/** Session file lines; a line cut by the kill is skipped, as panto itself skips it. */
async function readEntries(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, "utf8")).split("\n").flatMap((line) => {
    try {
      return line === "" ? [] : [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

interface StoredMessage {
  role: string;
  content: Array<{ type: string; text?: string; toolCallId?: string; content?: Array<{ text?: string }> }>;
}

const messageOf = (entry: Record<string, unknown>): StoredMessage | undefined =>
  entry.type === "message" ? (entry.message as StoredMessage) : undefined;

const textOf = (message: StoredMessage): string =>
  message.content.map((block) => (block.type === "text" ? (block.text ?? "") : "")).join("");

/** Where in the file each acknowledged event's record is: -1 when it is missing. */
function findAcknowledged(entries: Array<Record<string, unknown>>, event: Record<string, unknown>): number {
  return entries.findIndex((entry) => {
    const message = messageOf(entry);
    switch (event.type) {
      case "assistant_message":
        return message?.role === "assistant" && textOf(message) === event.text;
      case "tool_result":
        return (
          message?.role === "tool" &&
          message.content.some(
            (block) =>
              block.toolCallId === event.tool_call_id &&
              (block.content ?? []).map((part) => part.text ?? "").join("\n") === event.text,
          )
        );
      default:
        return entry.type === "compaction" && entry.summary === event.summary;
    }
  });
}

const ACKNOWLEDGING = new Set(["assistant_message", "tool_result", "compaction"]);

/** The key that shows the acknowledged item in a request body: its unique text or tool id. */
const wireKey = (event: Record<string, unknown>): string =>
  String(
    event.type === "tool_result"
      ? event.tool_call_id
      : event.type === "compaction"
        ? event.summary
        : event.text,
  );

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

const servers: FakeServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe("crash and resume", () => {
  it(`keeps every acknowledged message and a valid context when ${KILLED_RUNS} runs are SIGKILLed at seeded random moments`, async () => {
    let script: FakeReply[] = [];
    let onHang: () => void = () => {};
    const server = await startFakeAnthropicServer({
      responder: () => {
        const reply = script.shift() ?? { type: "text", text: "resumed-ok" };
        if (reply.type === "hang") onHang();
        return reply;
      },
    });
    servers.push(server);
    const { home, project } = await tempProject();
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 600 }));
    await writeFile(join(project, "notes.txt"), "the secret word is PAPAYA\n");
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
    const session = join(project, "s.jsonl");
    const args = (prompt: string, json: boolean) => [
      "-m",
      MODEL,
      "--session",
      session,
      ...(json ? ["--json"] : []),
      "-p",
      prompt,
    ];
    for (const prompt of [`seed-one ${FILLER}`, `seed-two ${FILLER}`]) {
      expect((await runCli(args(prompt, false), { cwd: project, env })).code).toBe(0);
    }

    const random = seededRandom(SEED);
    const tally = { killed: 0, acknowledged: 0, toolResults: 0, compactions: 0 };
    for (let run = 1; run <= KILLED_RUNS; run++) {
      // Every scenario in turn; the seed picks when each run dies.
      const scenario = scenarioFor(run, run - 1);
      const moment = killMomentFor(random);
      const where = `run ${run} (${scenario.name}, ${JSON.stringify(moment)})`;
      script = [...scenario.script];
      const stuck = new Promise<void>((resolve) => {
        onHang = resolve;
      });
      const killed: KilledRun = await runAndKill(args(scenario.prompt, true), {
        cwd: project,
        env,
        moment,
        stuck,
      });
      expect(
        killed.killed || killed.code === 0,
        `${where}: ${killed.code} ${JSON.stringify(killed.events)} ${killed.stderr}`,
      ).toBe(true);
      if (killed.killed) tally.killed++;

      // (b) Everything acknowledged on stdout is in the session file.
      const acknowledged = killed.events.filter((event) => ACKNOWLEDGING.has(String(event.type)));
      const entries = await readEntries(session);
      const positions = acknowledged.map((event) => findAcknowledged(entries, event));
      for (const [index, event] of acknowledged.entries()) {
        expect(positions[index], `${where}: ${JSON.stringify(event)} is not in the session file`).not.toBe(
          -1,
        );
      }
      tally.acknowledged += acknowledged.length;
      tally.toolResults += acknowledged.filter((event) => event.type === "tool_result").length;
      tally.compactions += acknowledged.filter((event) => event.type === "compaction").length;

      // (a) and (d): the next run opens the session (a killed holder's lock does not block) and exits 0.
      script = [];
      const requestsBefore = server.requests.length;
      // As big as the others, so every /compact and overflow finds turns older than the budget keeps.
      const next = await runCli(args(`check-${run} ${FILLER}`, false), { cwd: project, env });
      expect(next.code, `${where}: ${next.stderr}`).toBe(0);
      expect(await exists(`${session}.lock`)).toBe(false);

      // (c) The request it sent is protocol-valid and carries what was acknowledged.
      const request = server.requests
        .slice(requestsBefore)
        .find((candidate: RecordedRequest) => JSON.stringify(candidate.body).includes(`check-${run}`));
      expect(request, `${where}: no request from the resumed run`).toBeDefined();
      const body = request?.body;
      expect(anthropicProtocolProblems(body), where).toEqual([]);
      const sent = JSON.stringify(body);
      const lastCompaction = entries.findLastIndex((entry) => entry.type === "compaction");
      const lastCut = Math.max(
        lastCompaction,
        entries.findLastIndex((entry) => entry.type === "turn-failed"),
      );
      for (const [index, event] of acknowledged.entries()) {
        // Unless a later compaction may have summarised it (or a failed turn dropped it), it is
        // still in the context; the latest compaction's summary always is.
        if ((positions[index] ?? -1) >= (event.type === "compaction" ? lastCompaction : lastCut)) {
          expect(sent, `${where}: ${JSON.stringify(event)} is missing from the resumed context`).toContain(
            wireKey(event),
          );
        }
      }
    }
    expect(tally.killed).toBeGreaterThanOrEqual(KILLED_RUNS / 2);
    expect(tally.toolResults).toBeGreaterThan(0);
    expect(tally.compactions).toBeGreaterThanOrEqual(3);
  }, 300_000);
});
