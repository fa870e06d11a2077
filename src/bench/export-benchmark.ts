import { execFile } from "node:child_process";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ExportMeasurement } from "./export-child.js";
import { writeSyntheticSession } from "./synthetic-session.js";

const MB = 1024 * 1024;
const runFile = promisify(execFile);

export interface ExportBenchmarkRow extends ExportMeasurement {
  sizeMb: number;
  pageMb: number;
}

/**
 * `panto export` (HTML) of synthetic sessions of the given sizes, each in a fresh node process:
 * wall time and the process's peak resident memory, which should stay flat as the file grows.
 */
export async function runExportBenchmark(options: {
  sizesMb: number[];
  dir: string;
}): Promise<ExportBenchmarkRow[]> {
  const child = fileURLToPath(new URL("./export-child.js", import.meta.url));
  const rows: ExportBenchmarkRow[] = [];
  for (const sizeMb of options.sizesMb) {
    const path = join(options.dir, `export-${sizeMb}mb-${process.pid}.jsonl`);
    const output = `${path}.html`;
    try {
      await writeSyntheticSession(path, sizeMb * MB);
      const { stdout } = await runFile(process.execPath, [child, path, output], { maxBuffer: MB });
      const measured = JSON.parse(stdout) as ExportMeasurement;
      rows.push({ sizeMb, pageMb: (await stat(output)).size / MB, ...measured });
    } finally {
      await rm(path, { force: true });
      await rm(output, { force: true });
    }
  }
  return rows;
}

/** Prints the table `npm run bench` shows. */
export async function printExportBenchmark(dir: string): Promise<void> {
  console.log("\nExport a session as one HTML page (panto export), 10 / 100 MB of history");
  console.log("size_mb\tms\tpeak_rss_mb\tentries\tpage_mb");
  for (const row of await runExportBenchmark({ sizesMb: [10, 100], dir })) {
    console.log(
      `${row.sizeMb}\t${row.ms.toFixed(0)}\t${row.peakRssMb.toFixed(1)}\t${row.entries}\t${row.pageMb.toFixed(1)}`,
    );
  }
}
