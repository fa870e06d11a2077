import { resourceUsage } from "node:process";
import { fileURLToPath } from "node:url";
import { openSession } from "../session/index.js";

/** What resuming one session file `runs` times cost. */
export interface ResumeMeasurement {
  timesMs: number[];
  /** Peak resident memory during the resumes, above the process's settled baseline before them. */
  peakRssDeltaMb: number;
  /** Entries in the active suffix (to check the synthetic file resumed as intended). */
  activeEntries: number;
  warnings: string[];
}

const MB = 1024 * 1024;

function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Opens (resumes) the session `runs` times: open, build the effective context, close. Meant to run
 * in a fresh process (see the end of this file), so the peak memory belongs to the resume alone.
 */
export async function measureResume(path: string, runs: number): Promise<ResumeMeasurement> {
  collectGarbage();
  const baseline = process.memoryUsage().rss;
  const timesMs: number[] = [];
  const warnings: string[] = [];
  let activeEntries = 0;
  let peak = baseline;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const session = await openSession(path, {
      cwd: "/bench",
      onWarning: (message) => warnings.push(message),
    });
    session.effectiveContext();
    activeEntries = session.activeEntries().length;
    await session.close();
    timesMs.push(performance.now() - started);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  // maxRSS (KiB) also catches a peak between the samples above.
  peak = Math.max(peak, resourceUsage().maxRSS * 1024);
  return { timesMs, peakRssDeltaMb: Math.max(0, peak - baseline) / MB, activeEntries, warnings };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, runs] = process.argv.slice(2);
  if (path === undefined) throw new Error("usage: node resume-child.js <session file> [runs]");
  const measurement = await measureResume(path, Number(runs ?? 5));
  process.stdout.write(`${JSON.stringify(measurement)}\n`);
}
