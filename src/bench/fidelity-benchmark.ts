import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { Message } from "../core/index.js";
import type { FidelityTotals } from "../fidelity/index.js";
import {
  compactionInEffect,
  extractFidelityFacts,
  fidelityTotals,
  readSessionSnapshot,
  scoreFidelity,
} from "../fidelity/index.js";
import { type TimingStats, timingStats } from "./timing-stats.js";

/** Distinct paths, commands and errors the generated work cycles through, as a real project's would. */
export const LARGE_SESSION_POOLS = { paths: 400, commands: 120, errors: 60 };
/** Turns kept verbatim after the compaction. */
export const LARGE_SESSION_KEPT_TURNS = 10;
const TS = "2025-06-01T09:00:00.000Z";

function pathOf(turn: number): string {
  return `src/feature-${turn % LARGE_SESSION_POOLS.paths}/index.ts`;
}

function commandOf(turn: number): string {
  return `npm test -- --grep "case ${turn % LARGE_SESSION_POOLS.commands}"`;
}

function errorOf(turn: number): string {
  return `AssertionError: expected ${turn % LARGE_SESSION_POOLS.errors} to equal 0`;
}

/** One turn: an instruction, a read, a command (every third one failing) and an answer. */
function turnMessages(turn: number): Message[] {
  const failed = turn % 3 === 0;
  const meta = { provider: "openai", api: "openai-chat" as const, model: "gpt-bench" };
  return [
    { role: "user", content: [{ type: "text", text: `Please make step ${turn} of ${pathOf(turn)} pass.` }] },
    {
      role: "assistant",
      content: [
        { type: "tool-call", id: `r${turn}`, name: "read", arguments: { path: pathOf(turn) } },
        { type: "tool-call", id: `b${turn}`, name: "bash", arguments: { command: commandOf(turn) } },
      ],
      ...meta,
      stopReason: "tool-use",
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: `r${turn}`,
          toolName: "read",
          content: [{ type: "text", text: "x" }],
          isError: false,
        },
        {
          type: "tool-result",
          toolCallId: `b${turn}`,
          toolName: "bash",
          content: [{ type: "text", text: failed ? `${errorOf(turn)}\n    at test.ts:1` : "1 passing" }],
          isError: failed,
        },
      ],
    },
    {
      role: "assistant",
      content: [{ type: "text", text: `Step ${turn} done.` }],
      ...meta,
      stopReason: "stop",
    },
  ];
}

/**
 * A session file of `turns` turns compacted once: every turn but the last
 * {@link LARGE_SESSION_KEPT_TURNS} summarised by a summary of about 4 KB that names the first 100
 * paths, then the kept copies. Returns the JSONL text.
 */
export function largeFidelitySession(turns: number): string {
  const lines = [
    JSON.stringify({ type: "session", version: 1, id: randomUUID(), created: TS, cwd: "/bench" }),
  ];
  let id = 0;
  const entry = (fields: Record<string, unknown>): string =>
    JSON.stringify({ ...fields, id: `e${id++}`, ts: TS });
  const kept: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const messages = turnMessages(turn);
    for (const message of messages) lines.push(entry({ type: "message", message }));
    if (turn >= turns - LARGE_SESSION_KEPT_TURNS) kept.push(...messages);
  }
  const named = Array.from({ length: 100 }, (_, index) => pathOf(index)).join(", ");
  const compactionId = `e${id}`;
  lines.push(
    entry({
      type: "compaction",
      summary: `Worked through the feature steps. Files touched: ${named}.`,
      trigger: "overflow",
      model: "openai/gpt-bench",
      fellBack: false,
      turnsSummarised: turns - LARGE_SESSION_KEPT_TURNS,
      turnsKept: LARGE_SESSION_KEPT_TURNS,
      tokensSummarised: turns * 60,
      tokensKept: LARGE_SESSION_KEPT_TURNS * 60,
      summaryTokens: 1000,
      sizeSources: { usage: 0, estimate: turns },
      keptMessages: kept.length,
    }),
  );
  for (const message of kept) lines.push(entry({ type: "message", message, keptBy: compactionId }));
  return `${lines.join("\n")}\n`;
}

/** Reads the session file and checks its compaction in effect, as `panto fidelity` does without --probe. */
export async function checkFidelityOf(path: string): Promise<FidelityTotals> {
  const snapshot = await readSessionSnapshot(path);
  const target = compactionInEffect(snapshot.entries);
  if (target === undefined) throw new Error(`${path}: no compaction in effect`);
  const facts = extractFidelityFacts(target.summarised);
  return fidelityTotals(scoreFidelity(facts, target.summary, target.block));
}

export interface FidelityBenchmarkResult extends TimingStats {
  totals: FidelityTotals;
  bytes: number;
}

/** Times the literal check of a `turns`-turn session, `runs` times, in `dir`. */
export async function runFidelityBenchmark(options: {
  turns: number;
  runs: number;
  dir: string;
}): Promise<FidelityBenchmarkResult> {
  const path = join(options.dir, `fidelity-${process.pid}.jsonl`);
  const text = largeFidelitySession(options.turns);
  await writeFile(path, text);
  try {
    const times: number[] = [];
    let totals: FidelityTotals | undefined;
    for (let run = 0; run < options.runs; run++) {
      const started = performance.now();
      totals = await checkFidelityOf(path);
      times.push(performance.now() - started);
    }
    return { ...timingStats(times), totals: totals as FidelityTotals, bytes: Buffer.byteLength(text) };
  } finally {
    await rm(path, { force: true });
  }
}
