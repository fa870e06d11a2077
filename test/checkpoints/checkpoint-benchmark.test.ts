import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  copyTrackedFiles,
  measureBashOverhead,
  measureStoreGrowth,
} from "../../src/bench/checkpoint-benchmark.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { makeGitProject } from "./checkpoint-fixture.js";

const temp = useTempDir("panto-checkpoint-bench-", { resolveLinks: true });

describe("the checkpoint benchmark", () => {
  it("copies a repository's tracked files, times bash checkpoints, and keeps the store under twice the changed bytes", async () => {
    const source = join(temp(), "source");
    await makeGitProject(source);
    const home = join(temp(), "home");
    await mkdir(home);
    const copy = join(temp(), "copy");
    expect(await copyTrackedFiles(source, copy)).toBe(5);
    const overhead = await measureBashOverhead(copy, home, 3);
    expect(overhead.stats.runs).toBe(3);
    expect(overhead.files).toBe(5);
    const growth = await measureStoreGrowth(copy, home, 10);
    expect(growth.changedBytes).toBeGreaterThan(0);
    expect(growth.objectBytes).toBeGreaterThan(0);
    expect(growth.objectBytes).toBeLessThanOrEqual(2 * growth.changedBytes);
  }, 60_000);
});
