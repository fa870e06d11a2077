/**
 * `npm run bench`: start-up time of the installed command beside node's own start (with each Node
 * version found: the machine's and those `.ci/run` installed), the time to
 * prepare a compaction over 1,000 to 50,000 turns with its growth exponent, resume time and memory
 * over growing session histories, listing a project's sessions, recall over a 100 MB session,
 * checkpoint overhead and store growth, a `bash` call with and without the sandbox, and streaming
 * long Markdown blocks to the terminal. Not part
 * of `npm test`; figures are medians with the
 * minimum and maximum, printed with the machine's load average.
 *
 * Flags: `--quick` leaves out the 1 GB resume; `--sizes=10,100` picks the resume sizes in MB;
 * `--only=checkpoints` runs the checkpoint figures alone; `--only=sandbox` the sandbox's;
 * `--only=compaction` the compaction's; `--only=startup` the start-up's (with each figure's
 * ratio to `node -e 0` and the goals: `-p hi` and `acp` initialize within x2, `--version`
 * x1.1); `--only=resume` resume alone, at `--sizes` (default 10, 100 and 1,000 MB); `--only=sessions` listing 1,000 sessions of 1 MB (goal: 300 ms with the index);
 * `--only=context` a 200-turn tool-heavy session's tokens, cache and cost per context mode
 * (`--modes=v1,clearing,prepared,cold,preparation`, `--turns=N`; see context-benchmark-report.ts). A run that
 * fails ends the bench with status 1 and its message, never with a figure.
 */
import { mkdir, rm } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { printCheckpointBenchmark } from "./checkpoint-benchmark.js";
import { runChunkedCompactionBenchmark, runCompactionPrepareBenchmark } from "./compaction-benchmark.js";
import { printContextBenchmark } from "./context-benchmark-report.js";
import { printExportBenchmark } from "./export-benchmark.js";
import { printFidelityBenchmark } from "./fidelity-benchmark-report.js";
import { runMarkdownStreamBenchmark } from "./markdown-stream-benchmark.js";
import { nodeBinaries, nodeCacheDir } from "./node-versions.js";
import { printRecallBenchmark } from "./recall-benchmark.js";
import { runResumeBenchmark } from "./resume-benchmark.js";
import { runSandboxBenchmark } from "./sandbox-benchmark.js";
import { reportSessionListBenchmark } from "./session-list-benchmark.js";
import { runStartupBenchmark } from "./startup-benchmark.js";
import { formatStats, growthExponent } from "./timing-stats.js";

function parseSizes(argv: readonly string[]): number[] {
  const flag = argv.find((arg) => arg.startsWith("--sizes="));
  if (flag === undefined) return argv.includes("--quick") ? [10, 100] : [10, 100, 1000];
  return flag
    .slice("--sizes=".length)
    .split(",")
    .map((part) => Number(part))
    .filter((size) => Number.isFinite(size) && size > 0);
}

function printLoad(when: string): void {
  const [one, five, fifteen] = loadavg().map((value) => value.toFixed(2));
  console.log(
    `load average ${when}: ${one} ${five} ${fifteen} (${cpus().length} CPUs, node ${process.version})`,
  );
}

/** Start-up with each Node found: this one, then those `.ci/run` installed (see `nodeBinaries`). */
async function startup(): Promise<void> {
  const nodes = nodeBinaries();
  console.log(
    `\nStart-up: whole process, wall time, 11 runs each, taking turns; per Node version (${nodes.length} found; .ci/run installs 22 and 24 into ${nodeCacheDir()})`,
  );
  for (const node of nodes) {
    console.log(`node ${node.version}${node.current ? " (this one)" : ""}: ${node.execPath}`);
    const rows = await runStartupBenchmark({ runs: 11, node });
    const floor = rows[0]?.stats.medianMs ?? 0;
    for (const row of rows) {
      const over =
        row === rows[0]
          ? ""
          : `  +${(row.stats.medianMs - floor).toFixed(1)} ms, x${row.ratio.toFixed(2)} node -e 0 (x${row.ratios.minMs.toFixed(2)}-x${row.ratios.maxMs.toFixed(2)})${goalText(row.ratio, row.goal)}`;
      console.log(`  ${row.name.padEnd(36)}${formatStats(row.stats)}${over}`);
    }
  }
}

/** A compaction whose summary takes several requests: panto's own time around the model calls. */
async function chunkedCompaction(): Promise<void> {
  const window = 200_000;
  console.log(
    `\nA chunked compaction (10,000 turns; a summariser counting a token per 6 characters, window ${window}), 7 runs`,
  );
  const result = await runChunkedCompactionBenchmark({ turns: 10_000, runs: 7, window });
  console.log(
    `${formatStats(result)}; ${result.requests} summary requests, ${result.chunks} chunks (rejected whole first)`,
  );
}

/** "(goal x2: met)" or "(goal x2: NOT met)", empty without a goal. */
function goalText(ratio: number, goal: number | undefined): string {
  if (goal === undefined) return "";
  return ` (goal x${goal}: ${ratio <= goal ? "met" : "NOT met"})`;
}

function compactionPrepare(): void {
  console.log("\nPrepare a compaction (group, size, plan retention, serialise, build the request)");
  const points: Array<{ size: number; ms: number }> = [];
  for (const [turns, runs] of [
    [1_000, 15],
    [10_000, 9],
    [50_000, 5],
  ] as const) {
    const result = runCompactionPrepareBenchmark({ turns, runs });
    points.push({ size: turns, ms: result.medianMs });
    console.log(`${String(turns).padStart(6)} turns: ${formatStats(result)}`);
  }
  console.log(`growth exponent (log-log slope, 1 = linear): ${growthExponent(points).toFixed(2)}`);
  const estimated = runCompactionPrepareBenchmark({ turns: 10_000, runs: 9, usage: false });
  console.log(`${"10000".padStart(6)} turns without usage (every size estimated): ${formatStats(estimated)}`);
}

/**
 * A bash call with and without the sandbox (the budget is 20 ms added at the median), and
 * a read, write and edit call each (the descriptor checks that hold them to the policy).
 */
async function sandbox(): Promise<void> {
  console.log(
    "\nSandbox: one bash tool call (`true`) and one read, write and edit call, wall time, 31 runs each, taking turns",
  );
  const result = await runSandboxBenchmark({ runs: 31 });
  if ("skipped" in result) {
    console.log(`skipped: ${result.skipped}`);
    return;
  }
  for (const row of result.rows) console.log(`${row.name.padEnd(38)}${formatStats(row.stats)}`);
  for (const tool of ["read", "write", "edit"]) {
    const median = (label: string) =>
      result.rows.find((row) => row.name === `${tool} 4 KB, ${label}`)?.stats.medianMs;
    const bareMs = median("no sandbox");
    const heldMs = median("sandbox");
    if (bareMs !== undefined && heldMs !== undefined)
      console.log(`${tool}: added by the sandbox's checks (medians): ${(heldMs - bareMs).toFixed(2)} ms`);
  }
  const [bare, confined] = result.rows;
  if (bare !== undefined && confined !== undefined) {
    const added = confined.stats.medianMs - bare.stats.medianMs;
    console.log(
      `added by the sandbox (medians): ${added.toFixed(1)} ms (x${(confined.stats.medianMs / bare.stats.medianMs).toFixed(2)}; budget 20 ms)`,
    );
  }
}

/** Streaming an answer's long blocks to the terminal, line by line (linear since a fuzz find). */
function markdownStream(): void {
  console.log("\nStreamed Markdown: one block pushed a line at a time, 7 runs each");
  const { rows, exponents } = runMarkdownStreamBenchmark(7);
  for (const row of rows)
    console.log(`${row.shape.padEnd(20)} ${String(row.lines).padStart(5)} lines: ${formatStats(row.stats)}`);
  for (const [shape, exponent] of exponents)
    console.log(`growth exponent, ${shape} (1 = linear, 2 = quadratic): ${exponent.toFixed(2)}`);
}

/** Resume over growing histories, then listing sessions (both write their files under `.bench`). */
async function resume(sizesMb: number[]): Promise<void> {
  const dir = join(process.cwd(), ".bench");
  await mkdir(dir, { recursive: true });
  try {
    await resumeTable(dir, sizesMb);
    await reportSessionListBenchmark(dir);
    await printExportBenchmark(dir);
    await printFidelityBenchmark(dir);
    await printRecallBenchmark(dir);
    await printCheckpointBenchmark(process.cwd(), dir, { runs: 21 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Resume's time and memory per history size, with the ratio of the largest to the smallest. */
async function resumeTable(dir: string, sizesMb: number[]): Promise<void> {
  console.log(
    `\nResume (open a session: read back to the latest compaction), ${sizesMb.join(" / ")} MB of history`,
  );
  const rows = await runResumeBenchmark({ sizesMb, runs: 7, dir });
  console.log("size_mb\tmedian_ms\tpeak_rss_delta_mb");
  for (const row of rows) {
    console.log(`${row.sizeMb}\t${row.medianMs.toFixed(2)}\t${row.peakRssDeltaMb.toFixed(1)}`);
  }
  const first = rows[0];
  const last = rows.at(-1);
  if (first !== undefined && last !== undefined && first !== last) {
    console.log(
      `ratio ${last.sizeMb} MB / ${first.sizeMb} MB: time x${(last.medianMs / first.medianMs).toFixed(2)}, ` +
        `memory x${(last.peakRssDeltaMb / Math.max(first.peakRssDeltaMb, 0.1)).toFixed(2)}`,
    );
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  printLoad("before");
  if (argv.includes("--only=checkpoints")) {
    const dir = join(process.cwd(), ".bench");
    await mkdir(dir, { recursive: true });
    await printCheckpointBenchmark(process.cwd(), dir, { runs: 21 }).finally(() =>
      rm(dir, { recursive: true, force: true }),
    );
    printLoad("after");
    return;
  }
  if (argv.includes("--only=sandbox")) {
    await sandbox();
    printLoad("after");
    return;
  }
  if (argv.includes("--only=compaction")) {
    compactionPrepare();
    await chunkedCompaction();
    printLoad("after");
    return;
  }
  if (argv.includes("--only=startup")) {
    await startup();
    printLoad("after");
    return;
  }
  if (argv.includes("--only=sessions")) {
    const dir = join(process.cwd(), ".bench");
    await mkdir(dir, { recursive: true });
    await reportSessionListBenchmark(dir, { sessions: 1_000, sizeMb: 1 }).finally(() =>
      rm(dir, { recursive: true, force: true }),
    );
    printLoad("after");
    return;
  }
  if (argv.includes("--only=resume")) {
    const dir = join(process.cwd(), ".bench");
    await mkdir(dir, { recursive: true });
    await resumeTable(dir, parseSizes(argv)).finally(() => rm(dir, { recursive: true, force: true }));
    printLoad("after");
    return;
  }
  if (argv.includes("--only=context")) {
    await printContextBenchmark(argv);
    printLoad("after");
    return;
  }
  if (argv.includes("--only=markdown")) {
    markdownStream();
    printLoad("after");
    return;
  }
  await startup();
  await sandbox();
  compactionPrepare();
  await chunkedCompaction();
  markdownStream();
  await resume(parseSizes(argv));
  console.log("");
  printLoad("after");
}

// A figure from a run that failed would mislead: any failure ends the bench with its message and status 1.
await main().catch((error: unknown) => {
  console.error(
    `\nbench FAILED, no figure reported for the rest: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
});
