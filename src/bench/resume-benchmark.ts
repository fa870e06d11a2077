import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { measureResume, type ResumeMeasurement } from "./resume-child.js";
import { writeSyntheticSession } from "./synthetic-session.js";

export interface ResumeBenchmarkOptions {
  /** History sizes to generate, in MB (10, 100, 1000 for the figures). */
  sizesMb: number[];
  /** Resumes per size; the median time is reported. */
  runs: number;
  /** Where the synthetic session files go; each is deleted after its measurement. */
  dir: string;
}

export interface ResumeBenchmarkRow {
  sizeMb: number;
  medianMs: number;
  peakRssDeltaMb: number;
}

const MB = 1024 * 1024;
const runFile = promisify(execFile);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2 === 1) return sorted[middle] ?? Number.NaN;
  return ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

/**
 * Measures in a fresh `node` process running the compiled child, so one size's garbage never
 * counts against the next. Run from TypeScript sources (no compiled child), it measures in this
 * process instead, which makes the memory figure only indicative.
 */
async function measure(path: string, runs: number): Promise<ResumeMeasurement> {
  const child = fileURLToPath(new URL("./resume-child.js", import.meta.url));
  if (!existsSync(child)) return await measureResume(path, runs);
  const { stdout } = await runFile(process.execPath, ["--expose-gc", child, path, String(runs)], {
    maxBuffer: 16 * MB,
  });
  return JSON.parse(stdout) as ResumeMeasurement;
}

/**
 * Writes synthetic sessions of the given sizes (coding turns with tool calls, many compactions,
 * the latest compaction near the end with about 200 entries after it), resumes each `runs` times,
 * and reports the median time and the peak memory of a resume. Both should stay flat as the
 * history grows, because a resume reads only from the latest compaction on.
 */
export async function runResumeBenchmark(options: ResumeBenchmarkOptions): Promise<ResumeBenchmarkRow[]> {
  const rows: ResumeBenchmarkRow[] = [];
  for (const sizeMb of options.sizesMb) {
    const path = join(options.dir, `resume-${sizeMb}mb-${process.pid}.jsonl`);
    try {
      const { activeEntries } = await writeSyntheticSession(path, sizeMb * MB);
      const result = await measure(path, options.runs);
      if (result.warnings.length > 0 || result.activeEntries !== activeEntries) {
        throw new Error(
          `synthetic session ${path} did not resume cleanly: ${result.activeEntries} active entries (expected ${activeEntries}); ${result.warnings.join("; ")}`,
        );
      }
      rows.push({ sizeMb, medianMs: median(result.timesMs), peakRssDeltaMb: result.peakRssDeltaMb });
    } finally {
      await rm(path, { force: true });
      await rm(`${path}.lock`, { force: true });
    }
  }
  return rows;
}
