import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CompactionPreparation, type WritePrepared } from "../../src/agent/compaction-preparation.js";
import type { PreparedSummary } from "../../src/compaction/index.js";
import type { SummaryRequestUsage } from "../../src/core/index.js";
import { openSession, type Session } from "../../src/session/index.js";
import { assistant, record, user } from "../session/session-test-helpers.js";

let dir: string;
let session: Session;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-preparation-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});

afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

async function turn(prompt: string, answer: string): Promise<void> {
  await session.appendMessage(user(prompt));
  await session.appendMessage(assistant(answer));
}

const usage = (promptTokens: number): SummaryRequestUsage => ({
  model: "fake/summariser",
  promptTokens,
  outputTokens: 10,
  resentOutputTokens: 10,
});

/** A writer that "summarises" the first `turns` turns, recording what it was handed to build on. */
function writer(turns: number, text: string, cost: number, seen: Array<PreparedSummary | undefined>) {
  const write: WritePrepared = async (_signal, onTopOf) => {
    seen.push(onTopOf);
    return {
      outcome: {
        type: "prepared",
        prepared: {
          turns,
          summary: { ok: true, summary: text, model: "fake/summariser" } as PreparedSummary["summary"],
        },
        plan: { summarise: [], keep: [], keptTokens: 0, summarisedTokens: 100 * turns },
      },
      usage: [usage(cost)],
    };
  };
  return write;
}

describe("CompactionPreparation: a summary written on top of the one held", () => {
  it("hands the held summary to the writer when it no longer fits, and carries its requests' cost into the new one", async () => {
    const preparation = new CompactionPreparation();
    const seen: Array<PreparedSummary | undefined> = [];
    await turn("one", "first answer");
    const first = await preparation.start(session, writer(1, "ONE", 5_000, seen));
    expect(first?.prepared.turns).toBe(1);
    expect(seen).toEqual([undefined]);

    await turn("two", "second answer");
    // Still fits: nothing new is written.
    expect(preparation.start(session, writer(2, "TWO", 800, seen), () => true)).toBeUndefined();
    const second = await preparation.start(session, writer(2, "TWO", 800, seen), () => false);
    expect(seen[1]).toMatchObject({ turns: 1, summary: { summary: "ONE" } });
    expect(second?.prepared).toMatchObject({ turns: 2, summary: { summary: "TWO" } });
    expect(second?.usage.map((used) => used.promptTokens)).toEqual([5_000, 800]);
    expect(preparation.pending(session)).toMatchObject({ state: "ready", turns: 2, summary: "TWO" });
  });

  it("holds the summary it was to extend again when the request on top of it fails", async () => {
    const preparation = new CompactionPreparation();
    const seen: Array<PreparedSummary | undefined> = [];
    await turn("one", "first answer");
    await preparation.start(session, writer(1, "ONE", 5_000, seen));
    await turn("two", "second answer");
    const failing: WritePrepared = async () => {
      throw new Error("summariser down");
    };
    expect(await preparation.start(session, failing, () => false)).toBeUndefined();
    expect(preparation.pending(session)).toMatchObject({ state: "ready", turns: 1, summary: "ONE" });
    // Still refused as too short: the next try builds on it again.
    await preparation.start(session, writer(2, "TWO", 800, seen), () => false);
    expect(seen[1]).toMatchObject({ turns: 1, summary: { summary: "ONE" } });
    expect(preparation.pending(session)).toMatchObject({ state: "ready", turns: 2, summary: "TWO" });
  });

  it("writes afresh, with nothing carried, once the held summary's turns changed (a rewind, an edit)", async () => {
    const preparation = new CompactionPreparation();
    const seen: Array<PreparedSummary | undefined> = [];
    await turn("one", "first answer");
    await preparation.start(session, writer(1, "ONE", 5_000, seen));
    // A compaction written since: the held summary stands for a context that is no more.
    await session.appendCompaction(record("S"), []);
    await turn("two", "second answer");
    const fresh = await preparation.start(session, writer(1, "FRESH", 700, seen), () => false);
    expect(seen[1]).toBeUndefined();
    expect(fresh?.usage.map((used) => used.promptTokens)).toEqual([700]);
  });
});
