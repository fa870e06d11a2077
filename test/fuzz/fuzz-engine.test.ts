import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { CoverageProbe } from "../../fuzz/engine/coverage-probe.js";
import { minimiseInput } from "../../fuzz/engine/minimise-input.js";
import { Mutator } from "../../fuzz/engine/mutate.js";
import { Random } from "../../fuzz/engine/random.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const planted = mkdtempSync(join(tmpdir(), "panto-fuzz-planted-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

/** Targets with a planted bug each, which the engine must find from an empty corpus. */
const PLANTED = {
  "hangs-on-x": `export const target = { description: "loops forever on x", dictionary: ["x"], timeoutMs: 300,
    run(input) { if (input.includes(0x78)) for (;;) {} } };`,
  "throws-on-y": `export const target = { description: "throws a TypeError on y", dictionary: ["y"],
    run(input) { if (input.includes(0x79)) throw new TypeError("planted"); } };`,
  clean: `export const target = { description: "never fails", run(input) { return input.length; } };`,
};

describe("the fuzz engine", () => {
  it("finds a planted hang and a planted crash, each with its input, and nothing in a clean target", () => {
    for (const [name, source] of Object.entries(PLANTED)) writeFileSync(join(planted, `${name}.ts`), source);
    const run = spawnSync(
      process.execPath,
      ["fuzz/run-fuzz.mjs", "--json", "--seconds", "3", "--seed", "7"],
      {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, PANTO_FUZZ_TARGETS: planted },
        timeout: 60_000,
      },
    );
    const results = new Map(
      run.stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map(
          (line) =>
            JSON.parse(line) as {
              target: string;
              execs: number;
              finds: Array<{ kind: string; signature: string }>;
            },
        )
        .map((result) => [result.target, result]),
    );
    expect(run.status, run.stderr).toBe(1);
    expect(results.get("hangs-on-x")?.finds.map((find) => find.kind)).toEqual(["timeout"]);
    expect(results.get("throws-on-y")?.finds).toEqual([expect.objectContaining({ kind: "crash" })]);
    expect(results.get("throws-on-y")?.finds[0]?.signature).toContain("TypeError");
    expect(results.get("clean")?.finds).toEqual([]);
    expect(results.get("clean")?.execs).toBeGreaterThan(100);
    // The stderr report shows each find's input: the byte that set it off is in it.
    expect(run.stderr).toMatch(/timeout: input still running after 300 ms\n {2}input \(\d+ bytes\): ".*x/);
  }, 90_000);

  it("counts coverage features: a new branch is new, the same path again is not", () => {
    const probe = new CoverageProbe((url) => url.endsWith("fuzz-engine.test.ts"));
    const branchy = (value: number): string => (value > 10 ? (value > 100 ? "large" : "medium") : "small");
    probe.take();
    branchy(1);
    const first = probe.take();
    branchy(2);
    expect(probe.take()).toBe(0);
    branchy(500);
    expect(probe.take()).toBeGreaterThan(0);
    expect(first).toBeGreaterThan(0);
  });

  it("shrinks a failing input while it fails the same way", async () => {
    const failing = Buffer.from(`${"a".repeat(300)}BUG${"z".repeat(300)}`);
    const result = await minimiseInput(failing, async (input) =>
      input.includes("BUG")
        ? { kind: "crash", signature: "crash Error @1", message: "bug", stack: "" }
        : undefined,
    );
    expect(result).toEqual({ input: Buffer.from("BUG"), signature: "crash Error @1" });
  });

  it("mutates within the length limit, the same way for the same seed", () => {
    const seedInput = Buffer.from('{"type":"message","id":"e1"}\n{"type":"pin","id":"p","text":"x"}');
    const run = (seed: number): Buffer[] => {
      const mutator = new Mutator(new Random(seed), ['"type":"tool-call"'], 64);
      return Array.from({ length: 200 }, () => mutator.mutate(seedInput, () => seedInput));
    };
    const first = run(3);
    expect(run(3)).toEqual(first);
    expect(first.every((input) => input.length <= 64)).toBe(true);
    expect(new Set(first.map((input) => input.toString("latin1"))).size).toBeGreaterThan(150);
  });
});
