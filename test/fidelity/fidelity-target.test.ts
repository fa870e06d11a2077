import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { compactionInEffect, extractFidelityFacts, readSessionSnapshot } from "../../src/fidelity/index.js";
import { openSession } from "../../src/session/index.js";
import {
  compactionRecord,
  keptMessages,
  LOSSY_SUMMARY,
  summarisedMessages,
  writeFidelitySession,
} from "./fidelity-session.js";

let dirs: string[] = [];

afterEach(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  dirs = [];
});

async function sessionPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "panto-fidelity-"));
  dirs.push(dir);
  return join(dir, "session.jsonl");
}

describe("compactionInEffect", () => {
  it("gives the summarised turns, the context now, and the context with the compaction undone", async () => {
    const path = await sessionPath();
    await writeFidelitySession(path, "/project", { summary: LOSSY_SUMMARY, pins: ["Use pnpm."] });
    const target = compactionInEffect((await readSessionSnapshot(path)).entries);
    expect(target?.summarised.flatMap((turn) => turn.messages)).toEqual(summarisedMessages());
    expect(target?.summary).toBe(LOSSY_SUMMARY);
    expect(target?.block).toContain(LOSSY_SUMMARY);
    expect(target?.block).toContain("1. Use pnpm.");
    expect(target?.compacted.messages).toEqual(keptMessages());
    expect(target?.full.messages).toEqual([...summarisedMessages(), ...keptMessages()]);
    expect(target?.full.compaction?.summary).not.toContain(LOSSY_SUMMARY);
  });

  it("measures an edited summary against the turns of the compaction it replaced, and undoes both for the full context", async () => {
    const path = await sessionPath();
    await writeFidelitySession(path, "/project", { summary: LOSSY_SUMMARY });
    const session = await openSession(path, { cwd: "/project", onWarning: () => {} });
    const base = session.activeCompaction();
    await session.appendCompaction(
      compactionRecord("Edited: only src/util.ts matters.", {
        trigger: "edited",
        editedFrom: base?.id as string,
        turnsSummarised: 0,
      }),
      session.effectiveContext().messages,
    );
    await session.close();
    const target = compactionInEffect((await readSessionSnapshot(path)).entries);
    expect(target?.trigger).toBe("edited");
    expect(target?.summary).toBe("Edited: only src/util.ts matters.");
    expect(extractFidelityFacts(target?.summarised ?? []).length).toBe(10);
    expect(target?.full.messages).toEqual([...summarisedMessages(), ...keptMessages()]);
    expect(target?.full.compaction).toBeUndefined();
  });

  it("finds no compaction in a session that has none, or whose only one was undone", async () => {
    const path = await sessionPath();
    await writeFidelitySession(path, "/project", {});
    expect(compactionInEffect((await readSessionSnapshot(path)).entries)).toBeUndefined();
    const undone = await sessionPath();
    await writeFidelitySession(undone, "/project", { summary: LOSSY_SUMMARY });
    const session = await openSession(undone, { cwd: "/project", onWarning: () => {} });
    await session.appendUncompact(session.activeCompaction()?.id as string);
    await session.close();
    expect(compactionInEffect((await readSessionSnapshot(undone)).entries)).toBeUndefined();
  });
});
