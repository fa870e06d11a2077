import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

/** The built bench, as `npm run bench` runs it: it times the built command next to it (dist/bin). */
const { runStartupBenchmark } = (await import(
  new URL("../../dist/bench/startup-benchmark.js", import.meta.url).href
)) as typeof import("../../src/bench/startup-benchmark.js");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-startup-bench-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/**
 * A "node" for the bench that is the real one until its Nth start, which fails with exit 3 and a
 * message on stderr: the bench must stop there and say which run it was, never print a figure.
 */
async function nodeFailingAt(start: number): Promise<string> {
  const script = join(dir, "node");
  const counter = join(dir, "starts");
  await writeFile(
    script,
    `#!/bin/sh
n=$(( $(cat '${counter}' 2>/dev/null || echo 0) + 1 ))
echo $n > '${counter}'
if [ $n -eq ${start} ]; then echo "broken start $n" >&2; exit 3; fi
exec '${process.execPath}' "$@"
`,
  );
  await chmod(script, 0o755);
  return script;
}

describe("the start-up bench", { timeout: 60_000 }, () => {
  it("fails on a run that errored, naming the row, the warm-up and the Node, with the run's own message", async () => {
    const execPath = await nodeFailingAt(2);
    await expect(
      runStartupBenchmark({ runs: 1, node: { version: "v99.1.0", execPath, current: false } }),
    ).rejects.toThrow(
      /start-up "panto --version", the warm-up run, node v99\.1\.0 .*exited with 3: broken start 2/,
    );
  });

  it("names the counted run that failed, after a clean warm-up", async () => {
    // Warm-up: seven rows on Node 20 (eight and nine on 22 and later); then node -e 0 and --version.
    const rows = Number(/^v(\d+)/.exec(process.version)?.[1]) >= 22 ? 9 : 7;
    const execPath = await nodeFailingAt(rows + 2);
    await expect(
      runStartupBenchmark({ runs: 1, node: { version: process.version, execPath, current: false } }),
    ).rejects.toThrow(/start-up "panto --version", run 1 of 1, node v[\d.]+ .*exited with 3: broken start/);
  });
});
