import { createWriteStream } from "node:fs";
import { resourceUsage } from "node:process";
import { fileURLToPath } from "node:url";
import { exportSession, streamSink } from "../export/index.js";

/** One export's cost, measured in a fresh process so the peak memory is the export's own. */
export interface ExportMeasurement {
  ms: number;
  peakRssMb: number;
  entries: number;
}

export async function measureExport(path: string, output: string): Promise<ExportMeasurement> {
  const started = performance.now();
  const summary = await exportSession({ path, format: "html" }, streamSink(createWriteStream(output), true));
  const ms = performance.now() - started;
  return { ms, peakRssMb: (resourceUsage().maxRSS * 1024) / (1024 * 1024), entries: summary.entries };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [path, output] = process.argv.slice(2);
  if (path === undefined || output === undefined)
    throw new Error("usage: node export-child.js <session> <output>");
  process.stdout.write(`${JSON.stringify(await measureExport(path, output))}\n`);
}
