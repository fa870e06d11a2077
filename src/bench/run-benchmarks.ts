/**
 * `npm run bench`: resume time and memory over growing session histories, and the time to prepare
 * a compaction over 10,000 turns. Not part of `npm test`; figures are medians.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { runCompactionPrepareBenchmark } from "./compaction-benchmark.js";
import { printExportBenchmark } from "./export-benchmark.js";
import { runResumeBenchmark } from "./resume-benchmark.js";

function parseSizes(argv: readonly string[]): number[] {
  const flag = argv.find((arg) => arg.startsWith("--sizes="));
  if (flag === undefined) return [10, 100, 1000];
  return flag
    .slice("--sizes=".length)
    .split(",")
    .map((part) => Number(part))
    .filter((size) => Number.isFinite(size) && size > 0);
}

async function main(): Promise<void> {
  const dir = join(process.cwd(), ".bench");
  await mkdir(dir, { recursive: true });
  try {
    const sizesMb = parseSizes(process.argv.slice(2));
    console.log(
      `Resume (open a session: read back to the latest compaction), ${sizesMb.join(" / ")} MB of history`,
    );
    const resume = await runResumeBenchmark({ sizesMb, runs: 7, dir });
    console.log("size_mb\tmedian_ms\tpeak_rss_delta_mb");
    for (const row of resume) {
      console.log(`${row.sizeMb}\t${row.medianMs.toFixed(2)}\t${row.peakRssDeltaMb.toFixed(1)}`);
    }
    const first = resume[0];
    const last = resume.at(-1);
    if (first !== undefined && last !== undefined && first !== last) {
      console.log(
        `ratio ${last.sizeMb} MB / ${first.sizeMb} MB: time x${(last.medianMs / first.medianMs).toFixed(2)}, ` +
          `memory x${(last.peakRssDeltaMb / Math.max(first.peakRssDeltaMb, 0.1)).toFixed(2)}`,
      );
    }
    console.log("\nPrepare a compaction (group turns, size, plan retention, serialise transcript)");
    const prepare = runCompactionPrepareBenchmark({ turns: 10_000, runs: 9 });
    console.log(`${prepare.turns} turns: median ${prepare.medianMs.toFixed(1)} ms`);
    await printExportBenchmark(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
