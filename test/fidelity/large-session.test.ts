import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkFidelityOf,
  LARGE_SESSION_KEPT_TURNS,
  LARGE_SESSION_POOLS,
  largeFidelitySession,
} from "../../src/bench/fidelity-benchmark.js";
import { compactionInEffect, readSessionSnapshot } from "../../src/fidelity/index.js";

describe("a 10,000-turn session", () => {
  it("is checked whole: every summarised turn's facts counted once, the summary's named paths found", async () => {
    const dir = await mkdtemp(join(tmpdir(), "panto-fidelity-large-"));
    try {
      const path = join(dir, "large.jsonl");
      await writeFile(path, largeFidelitySession(10_000));
      const target = compactionInEffect((await readSessionSnapshot(path)).entries);
      expect(target?.summarised).toHaveLength(10_000 - LARGE_SESSION_KEPT_TURNS);
      expect(target?.compacted.messages).toHaveLength(4 * LARGE_SESSION_KEPT_TURNS);
      expect(target?.full.messages).toHaveLength(4 * 10_000);
      const summarisedTurns = 10_000 - LARGE_SESSION_KEPT_TURNS;
      // Errors come from every third turn: 20 of the 60 pooled messages.
      const facts = LARGE_SESSION_POOLS.paths + LARGE_SESSION_POOLS.commands + 20 + summarisedTurns;
      // The 100 named paths, and the instructions of steps 0-9: a one-digit number is no key term,
      // so "steps" and the named path make two of their three.
      expect(await checkFidelityOf(path)).toEqual({
        facts,
        inSummary: 110,
        inBlock: 110,
        answered: null,
        answeredRecall: null,
        answeredFull: null,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
