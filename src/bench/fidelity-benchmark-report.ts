import { runFidelityBenchmark } from "./fidelity-benchmark.js";
import { formatStats } from "./timing-stats.js";

/** Prints the time `panto fidelity` (no probes) takes to check 1,000- and 10,000-turn sessions. */
export async function printFidelityBenchmark(dir: string): Promise<void> {
  console.log("\nFidelity check (read the file, find the summarised turns, extract and score facts)");
  for (const [turns, runs] of [
    [1_000, 7],
    [10_000, 5],
  ] as const) {
    const result = await runFidelityBenchmark({ turns, runs, dir });
    const { facts, inSummary } = result.totals;
    console.log(
      `${String(turns).padStart(6)} turns (${(result.bytes / 1024 / 1024).toFixed(1)} MB, ${facts} facts, ${inSummary} in summary): ${formatStats(result)}`,
    );
  }
}
