import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { listSessions, SESSION_INDEX_FILE } from "../session/index.js";
import { writeSyntheticSession } from "./synthetic-session.js";
import { formatStats, type TimingStats, timingStats } from "./timing-stats.js";

export interface SessionListBenchmarkOptions {
  sessions: number;
  sizeMb: number;
  runs: number;
  /** A scratch folder; the sessions are written in a subfolder that is removed afterwards. */
  dir: string;
}

export interface SessionListBenchmarkResult {
  /** The first listing, with no index: heads read, counts within the default byte budget. */
  firstMs: number;
  /** Median listing once the index covers every file (a file appended to since counts only the new bytes). */
  indexedMedianMs: number;
  /** Sessions whose counts were exact in the first listing. */
  exactOnFirst: number;
  /** The listings with the index: median and spread. */
  indexed: TimingStats;
}

const MB = 1024 * 1024;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Writes `sessions` synthetic sessions of `sizeMb` each (one generated history, each copy with its
 * own header) and times `panto sessions`' listing: first with no index, then with one.
 */
export async function runSessionListBenchmark(
  options: SessionListBenchmarkOptions,
): Promise<SessionListBenchmarkResult> {
  const folder = join(options.dir, `sessions-${process.pid}`);
  await mkdir(folder, { recursive: true });
  try {
    const template = join(options.dir, `template-${process.pid}.jsonl`);
    await writeSyntheticSession(template, options.sizeMb * MB);
    const bytes = await readFile(template);
    await rm(template);
    const body = bytes.subarray(bytes.indexOf(0x0a) + 1);
    for (let index = 0; index < options.sessions; index++) {
      const header = {
        type: "session",
        version: 1,
        id: randomUUID(),
        created: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString(),
        cwd: "/bench",
      };
      const name = `${header.created.replace(/:/g, "-")}_${index.toString(16).padStart(8, "0")}.jsonl`;
      await writeFile(join(folder, name), Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), body]));
    }
    let started = performance.now();
    const first = await listSessions(folder);
    const firstMs = performance.now() - started;
    // Fill the index the way repeated listings would, then time listings that use it.
    await listSessions(folder, { countBudgetBytes: Number.POSITIVE_INFINITY });
    const times: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      started = performance.now();
      const listing = await listSessions(folder);
      times.push(performance.now() - started);
      if (listing.sessions.some((session) => !session.countsExact))
        throw new Error("index did not cover every session");
    }
    await rm(join(folder, SESSION_INDEX_FILE), { force: true });
    return {
      firstMs,
      indexedMedianMs: median(times),
      indexed: timingStats(times),
      exactOnFirst: first.sessions.filter((session) => session.countsExact).length,
    };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** Runs the listing benchmark (default 100 sessions of 10 MB; the start-up issue's 1,000 of 1 MB) and prints it. */
export async function reportSessionListBenchmark(
  dir: string,
  shape: { sessions: number; sizeMb: number } = { sessions: 100, sizeMb: 10 },
): Promise<void> {
  console.log(`\nList sessions (panto sessions): ${shape.sessions} sessions of ${shape.sizeMb} MB each`);
  const result = await runSessionListBenchmark({ ...shape, runs: 7, dir });
  console.log(
    `first listing, no index: ${result.firstMs.toFixed(1)} ms (${result.exactOnFirst}/${shape.sessions} counted exactly, the rest lower bounds)`,
  );
  console.log(
    `with the index: median ${result.indexedMedianMs.toFixed(1)} ms (${formatStats(result.indexed)})`,
  );
}
