import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const targets = readdirSync(new URL("../../fuzz/targets/", import.meta.url))
  .filter((name) => name.endsWith(".ts"))
  .map((name) => name.replace(/\.ts$/, ""));

interface TargetFigures {
  target: string;
  seeds: number;
  execs: number;
  finds: Array<{ kind: string; signature: string }>;
}

/**
 * `npm test`'s smoke run of the fuzz targets (`npm run fuzz -- --smoke`): every seed of each
 * target's corpus (the minimised inputs of old finds among them) and two seconds of fuzzing with a
 * fixed seed, each target checking its invariants. A regression of an old find fails here.
 */
describe("fuzz smoke run", () => {
  let figures = new Map<string, TargetFigures>();
  let log = "";

  beforeAll(() => {
    const run = spawnSync(process.execPath, ["fuzz/run-fuzz.mjs", "--smoke", "--json", "--seconds", "2"], {
      cwd: root,
      encoding: "utf8",
      timeout: 170_000,
    });
    log = run.stderr;
    figures = new Map(
      run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as TargetFigures)
        .map((entry) => [entry.target, entry]),
    );
  }, 180_000);

  it("has a seed corpus for every target", () => {
    for (const target of targets) {
      const seeds = readdirSync(new URL(`../../fuzz/corpus/${target}/`, import.meta.url));
      expect(seeds.length, target).toBeGreaterThan(0);
    }
  });

  it.each(targets)("%s: its seeds and two seconds of fuzzing break no invariant", (target) => {
    const result = figures.get(target);
    expect(result, `no figures for ${target}; the run said:\n${log.slice(-4000)}`).toBeDefined();
    expect(result?.seeds).toBeGreaterThan(0);
    expect(result?.execs).toBeGreaterThan(result?.seeds ?? 0);
    expect(result?.finds, log.slice(-6000)).toEqual([]);
  });
});
