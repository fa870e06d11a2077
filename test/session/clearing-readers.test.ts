import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { exportSession, memorySink } from "../../src/export/index.js";
import { replayHistory } from "../../src/frontends/acp/replay-history.js";
import { forkSession, openSession, type Session } from "../../src/session/index.js";
import { appendToolTurn, assistant, record, user } from "./session-test-helpers.js";

/**
 * Every reader honours a clearing the way the live session does: a fork and a resume carry the same
 * effective context, the export marks exactly the cleared output, ACP's session/load notes the
 * clearing at its place, and an undo brings the outputs back everywhere.
 */
let dir: string;
let session: Session;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-clearing-readers-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});
afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const OUTPUT = (id: string) => `${id} says: ${"result text ".repeat(50)}`;
const STUB = (id: string) =>
  `[cleared to save context: output of bash "ls", 200 tokens; recall {"tool_result": "${id}"} reads it back]`;

const turn = (n: number, ids: string[]) => appendToolTurn(session, n, ids, OUTPUT);

async function clearAndContinue(): Promise<void> {
  await turn(1, ["t1", "t2"]);
  await turn(2, ["t3"]);
  await session.appendMessage(user("prompt 3"));
  await session.appendClearing({
    results: ["t1", "t2"].map((id) => ({ toolCallId: id, toolName: "bash", tokens: 200, stub: STUB(id) })),
    tokensBefore: 900,
    tokensAfter: 500,
    reason: "trigger",
  });
  await session.appendMessage(assistant("answer 3"));
}

const resultTexts = (s: Session) =>
  s
    .effectiveContext()
    .messages.flatMap((message) => (message.role === "tool" ? message.content : []))
    .map((block) => (block.content[0]?.type === "text" ? block.content[0].text : ""));

describe("readers of a session with a clearing", () => {
  it("resume and fork give the live session's effective context, stubs included", async () => {
    await clearAndContinue();
    const live = session.effectiveContext();
    expect(resultTexts(session)).toEqual([STUB("t1"), STUB("t2"), OUTPUT("t3")]);
    await session.close();
    session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
    expect(session.effectiveContext()).toEqual(live);
    const fork = await forkSession({
      parentPath: join(dir, "s.jsonl"),
      path: join(dir, "f.jsonl"),
      cwd: dir,
    });
    const forked = await openSession(fork.path, { cwd: dir });
    try {
      expect(forked.effectiveContext()).toEqual(live);
    } finally {
      await forked.close();
    }
    // A fork from before the clearing never had it.
    const early = await forkSession({
      parentPath: join(dir, "s.jsonl"),
      path: join(dir, "e.jsonl"),
      cwd: dir,
      turn: 2,
    });
    const earlySession = await openSession(early.path, { cwd: dir });
    try {
      expect(resultTexts(earlySession)).toEqual([OUTPUT("t1"), OUTPUT("t2"), OUTPUT("t3")]);
    } finally {
      await earlySession.close();
    }
  });

  it("a compaction that keeps a cleared result and a later one reusing its call id stubs only the cleared copy, live and resumed", async () => {
    await clearAndContinue();
    // A server that numbers calls per answer gives a later call the id of a cleared one.
    await turn(4, ["t1"]);
    expect(resultTexts(session)).toEqual([STUB("t1"), STUB("t2"), OUTPUT("t3"), OUTPUT("t1")]);
    const kept = session.effectiveContext().messages;
    await session.appendCompaction(record("S"), kept);
    expect(resultTexts(session)).toEqual([STUB("t1"), STUB("t2"), OUTPUT("t3"), OUTPUT("t1")]);
    const live = session.effectiveContext();
    await session.close();
    session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
    expect(session.effectiveContext()).toEqual(live);
    // The kept copies hold the outputs whole; the compaction carries the clearing for the first copy only.
    const compaction = session.activeEntries().find((entry) => entry.type === "compaction");
    expect(compaction?.type === "compaction" ? compaction.clearings : undefined).toEqual([
      {
        id: expect.any(String),
        results: [
          expect.objectContaining({ toolCallId: "t1", copy: 2 }),
          expect.objectContaining({ toolCallId: "t2", copy: 2 }),
        ],
      },
    ]);
  });

  it("the export marks exactly the cleared outputs, and keeps them whole; an undo unmarks them", async () => {
    await clearAndContinue();
    const html = async () => {
      const sink = memorySink();
      await exportSession({ path: join(dir, "s.jsonl"), format: "html", full: true }, sink);
      return sink.text();
    };
    const before = await html();
    expect(before.match(/cleared from the context/g)).toHaveLength(2);
    expect(before).toContain("t1 says: result text");
    const latest = session.activeEntries().findLast((entry) => entry.type === "clearing");
    await session.appendUnclear({ clearingId: latest?.id ?? "", tokensBefore: 500, tokensAfter: 900 });
    expect(resultTexts(session)).toEqual([OUTPUT("t1"), OUTPUT("t2"), OUTPUT("t3")]);
    expect(await html()).not.toContain("cleared from the context");
  });

  it("ACP session/load shows the outputs whole and notes the clearing at its place with panto _meta", async () => {
    await clearAndContinue();
    const updates: SessionUpdate[] = [];
    await replayHistory(join(dir, "s.jsonl"), {
      cwd: dir,
      compactionEntities: true,
      send: (u) => updates.push(u),
    });
    const texts = updates.map((update) => JSON.stringify(update));
    const notice = texts.findIndex((text) => text.includes("panto/clearing"));
    expect(notice).toBeGreaterThan(texts.findIndex((text) => text.includes("t3 says")));
    expect(notice).toBeLessThan(texts.findIndex((text) => text.includes("answer 3")));
    expect(JSON.parse(texts[notice] ?? "{}")._meta["panto/clearing"]).toMatchObject({
      event: "cleared",
      toolResults: 2,
      ids: ["t1", "t2"],
      tokensBefore: 900,
      tokensAfter: 500,
    });
    expect(texts.some((text) => text.includes("t1 says"))).toBe(true);
  });
});

describe("the settled points of a context with clearings", () => {
  const clear = (ids: string[]) =>
    session.appendClearing({
      results: ids.map((id) => ({ toolCallId: id, toolName: "bash", tokens: 200, stub: STUB(id) })),
      tokensBefore: 900,
      tokensAfter: 500,
      reason: "trigger",
    });

  it("name the latest result each of the latest two clearings stubbed, in order, the same after resume; an undo moves them back", async () => {
    await turn(1, ["t1", "t2"]);
    await turn(2, ["t3"]);
    await turn(3, ["t4", "t5"]);
    await turn(4, ["t6"]);
    await session.appendMessage(user("prompt 5"));
    expect(session.effectiveContext().settledToolCallIds).toBeUndefined();
    await clear(["t1", "t2"]);
    expect(session.effectiveContext().settledToolCallIds).toEqual(["t2"]);
    await clear(["t3"]);
    expect(session.effectiveContext().settledToolCallIds).toEqual(["t2", "t3"]);
    const third = await clear(["t4", "t5"]);
    expect(session.effectiveContext().settledToolCallIds).toEqual(["t3", "t5"]);
    await session.close();
    session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
    expect(session.effectiveContext().settledToolCallIds).toEqual(["t3", "t5"]);
    await session.appendUnclear({ clearingId: third.id, tokensBefore: 500, tokensAfter: 900 });
    expect(session.effectiveContext().settledToolCallIds).toEqual(["t2", "t3"]);
  });
});
