import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runResumeBenchmark } from "../../src/bench/resume-benchmark.js";
import { writeSyntheticSession } from "../../src/bench/synthetic-session.js";
import { openSession } from "../../src/session/index.js";
import { makeTempDir, removeTempDir, warningSink } from "./session-test-helpers.js";

let dir: string;
beforeEach(async () => {
  dir = await makeTempDir();
});
afterEach(async () => {
  await removeTempDir(dir);
});

describe("the resume benchmark", () => {
  it("writes a synthetic session of the asked size, with unique ids, that resumes cleanly to ~200 entries", async () => {
    const path = join(dir, "synthetic.jsonl");
    const { activeEntries } = await writeSyntheticSession(path, 9 * 1024 * 1024);
    const size = (await stat(path)).size;
    expect(size).toBeGreaterThan(8.5 * 1024 * 1024);
    expect(size).toBeLessThanOrEqual(9 * 1024 * 1024);

    const lines = (await readFile(path, "utf8")).split("\n").slice(1, -1);
    const entries = lines.map((line) => JSON.parse(line));
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(entries.filter((entry) => entry.type === "compaction").length).toBeGreaterThan(20);
    expect(entries.slice(-activeEntries)[0].type).toBe("compaction");
    expect(activeEntries).toBeGreaterThanOrEqual(180);
    expect(activeEntries).toBeLessThanOrEqual(260);

    const { warnings, onWarning } = warningSink();
    const session = await openSession(path, { cwd: dir, onWarning });
    expect(session.activeEntries()).toHaveLength(activeEntries);
    expect(session.effectiveContext().compaction?.type).toBe("compaction");
    expect(warnings).toEqual([]);
    await session.close();
  });

  it("reports one row per size and deletes its files afterwards", async () => {
    const rows = await runResumeBenchmark({ sizesMb: [1, 2], runs: 3, dir });
    expect(rows.map((row) => row.sizeMb)).toEqual([1, 2]);
    for (const row of rows) {
      expect(row.medianMs).toBeGreaterThan(0);
      expect(row.peakRssDeltaMb).toBeGreaterThanOrEqual(0);
    }
    expect(await readdir(dir)).toEqual([]);
  });
});
