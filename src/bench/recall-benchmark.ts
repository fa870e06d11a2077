import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { isTurnStart, parseSessionLine } from "../session/index.js";
import { measureRecall, type RecallMeasurement } from "./recall-child.js";
import { writeSyntheticSession } from "./synthetic-session.js";
import { formatStats, timingStats } from "./timing-stats.js";

const MB = 1024 * 1024;
const runFile = promisify(execFile);
const TS = "2025-06-01T09:00:00.000Z";
/** The fact planted halfway through the history, in a turn many compactions summarised long ago. */
const NEEDLE = "the staging database listens on port 48213, not 5432";

/** The calls measured: a rare fact, a word found all over the history, and one turn read back. */
const CALLS: ReadonlyArray<{ name: string; request: { query?: string; turn?: number }; expect: string }> = [
  {
    name: 'search "staging port 48213" (one hit)',
    request: { query: "staging port 48213" },
    expect: "48213",
  },
  {
    name: 'search "zero-padded months" (everywhere)',
    request: { query: '"zero-padded months"' },
    expect: "zero-padded",
  },
  { name: "read the planted turn back whole", request: { turn: -1 }, expect: "48213" },
];

async function measure(path: string, request: object, runs: number): Promise<RecallMeasurement> {
  const child = fileURLToPath(new URL("./recall-child.js", import.meta.url));
  if (!existsSync(child)) return await measureRecall(path, request, runs);
  const { stdout } = await runFile(
    process.execPath,
    ["--expose-gc", child, path, JSON.stringify(request), String(runs)],
    { maxBuffer: 16 * MB },
  );
  return JSON.parse(stdout) as RecallMeasurement;
}

/**
 * Writes a synthetic session of `sizeMb` (coding turns with tool calls, a compaction every 40
 * turns) with one fact planted in a user message halfway through, then times recall in a fresh
 * process per kind of call: the median of `runs`, and the peak memory above the baseline.
 */
export async function printRecallBenchmark(dir: string, sizeMb = 100, runs = 7): Promise<void> {
  const path = join(dir, `recall-${sizeMb}mb-${process.pid}.jsonl`);
  try {
    const turn = await writeWithNeedle(path, sizeMb * MB);
    console.log(
      `\nrecall over a ${sizeMb} MB session (fact planted in turn ${turn} of the history; ${runs} runs each, fresh process)`,
    );
    for (const call of CALLS) {
      const request = call.request.turn === -1 ? { turn } : call.request;
      const result = await measure(path, request, runs);
      if (!result.answer.includes(call.expect))
        throw new Error(
          `recall benchmark: ${call.name} did not find "${call.expect}": ${result.answer.slice(0, 300)}`,
        );
      const cpu = timingStats(result.cpuMs).medianMs.toFixed(0);
      console.log(
        `${call.name.padEnd(44)}${formatStats(timingStats(result.timesMs))}, CPU ${cpu} ms, peak memory +${result.peakRssDeltaMb.toFixed(0)} MB`,
      );
    }
  } finally {
    await rm(path, { force: true });
    await rm(`${path}.tmp`, { force: true });
  }
}

/** A synthetic session with NEEDLE as a user message halfway through; returns that turn's number. */
async function writeWithNeedle(path: string, bytes: number): Promise<number> {
  const source = `${path}.tmp`;
  await writeSyntheticSession(source, bytes);
  const input = await open(source, "r");
  const output = await open(path, "w", 0o600);
  try {
    const { size } = await input.stat();
    const head = Buffer.alloc(Math.floor(size / 2));
    await input.read(head, 0, head.length, 0);
    const cut = head.lastIndexOf(0x0a) + 1;
    const before = head.subarray(0, cut);
    await output.write(before);
    const turn = countTurns(before) + 1;
    const user = {
      type: "message",
      id: "needle01",
      ts: TS,
      message: { role: "user", content: [{ type: "text", text: `Remember: ${NEEDLE}.` }] },
    };
    await output.write(`${JSON.stringify(user)}\n`);
    const rest = Buffer.alloc(size - cut);
    await input.read(rest, 0, rest.length, cut);
    await output.write(rest);
    return turn;
  } finally {
    await input.close();
    await output.close();
  }
}

/** The turns in `bytes` (whole lines of a session file), counted as recall numbers them. */
function countTurns(bytes: Buffer): number {
  let turns = 0;
  for (const line of bytes.toString("utf8").split("\n")) {
    const parsed = line.startsWith('{"type":"message"') ? parseSessionLine(line) : undefined;
    if (parsed?.kind === "entry" && isTurnStart(parsed.entry)) turns++;
  }
  return turns;
}
