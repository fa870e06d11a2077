import { resourceUsage } from "node:process";
import { fileURLToPath } from "node:url";
import { recall } from "../recall/index.js";
import type { SessionHeader } from "../session/index.js";

/** What one kind of recall call cost over one session file. */
export interface RecallMeasurement {
  timesMs: number[];
  /** CPU time (user and system) of each call: what the machine's other load does not inflate. */
  cpuMs: number[];
  /** Peak resident memory during the calls, above the process's settled baseline before them. */
  peakRssDeltaMb: number;
  /** The first answer, to check the call found what it should. */
  answer: string;
}

const MB = 1024 * 1024;

/**
 * Runs one recall call `runs` times on the session at `path` (read-only, as the tool does): a
 * search when `request` has a query, a read otherwise. Meant to run in a fresh process, so the
 * peak memory belongs to recall alone.
 */
export async function measureRecall(
  path: string,
  request: { query?: string; turn?: number },
  runs: number,
): Promise<RecallMeasurement> {
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage().rss;
  const header: SessionHeader = {
    type: "session",
    version: 1,
    id: "bench-session",
    created: "",
    cwd: "/bench",
  };
  const timesMs: number[] = [];
  const cpuMs: number[] = [];
  let answer = "";
  let peak = baseline;
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await recall({ path, header, hasFile: true }, { ...request, limit: 8 });
    timesMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    if (run === 0) answer = result.text;
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  peak = Math.max(peak, resourceUsage().maxRSS * 1024);
  return { timesMs, cpuMs, peakRssDeltaMb: Math.max(0, peak - baseline) / MB, answer };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, request, runs] = process.argv.slice(2);
  if (path === undefined || request === undefined)
    throw new Error("usage: node recall-child.js <session file> <request JSON> [runs]");
  const measurement = await measureRecall(path, JSON.parse(request) as { query?: string }, Number(runs ?? 7));
  process.stdout.write(`${JSON.stringify(measurement)}\n`);
}
