import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent, type AgentEvent } from "../../src/agent/index.js";
import { DEFAULT_CLEARING } from "../../src/compaction/index.js";
import { PantoError, type ToolCallBlock } from "../../src/core/index.js";
import { openSession, type Session } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { type ScriptStep, scriptedClients } from "./scripted-client.js";

/**
 * Config `compact_when_cold`: the first request after the prompt cache has gone cold (judged from
 * the session's recorded request times, as clearing judges it) writes the whole prompt to the cache
 * again anyway, so a context past the fraction of a known window is compacted first.
 */

let dir: string;
let session: Session;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  dir = await mkdtemp(join(tmpdir(), "panto-cold-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});

afterEach(async () => {
  vi.useRealTimers();
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const isSummaryRequest = (request: { systemPrompt: string }) => request.systemPrompt.startsWith("COMPACT");
/** About 500 tokens as panto estimates them: two such answers fill a 1,000-token window past 0.3. */
const LONG = "word ".repeat(400);
const TTL_SECONDS = 300;

function coldAgent(
  steps: ScriptStep[],
  options: { fraction?: number | undefined; window?: number | undefined; keepVerbatimTokens?: number } = {},
) {
  const scripted = scriptedClients(steps);
  const events: AgentEvent[] = [];
  const agent = new Agent({
    session,
    model: "fake/active",
    createClient: scripted.createClient,
    tools: createDefaultTools(),
    systemPrompt: "SYSTEM",
    compactionPrompt: "COMPACT THE TRANSCRIPT",
    keepVerbatimTokens: options.keepVerbatimTokens ?? 0,
    approve: async () => "allow",
    onEvent: (event) => events.push(event),
    cwd: dir,
    clearing: { ...DEFAULT_CLEARING, enabled: false, cacheTtlSeconds: TTL_SECONDS },
    contextWindow: async () => ("window" in options ? options.window : 1000),
    ...("fraction" in options
      ? options.fraction === undefined
        ? {}
        : { compactWhenCold: options.fraction }
      : { compactWhenCold: 0.3 }),
  });
  return { agent, events, calls: scripted.calls };
}

/** Moves the clock past the cache's lifetime since the latest request. */
function pause(seconds: number): void {
  vi.setSystemTime(Date.now() + seconds * 1000);
}

const compactions = (events: AgentEvent[]) => events.filter((event) => event.type === "compaction");

describe("Agent: compaction when the prompt cache has gone cold (compact_when_cold)", () => {
  it("compacts before the first request after a pause longer than the cache lives: a summary request, then the request with the summary and the new turn", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { reply: "THE SUMMARY" },
      { reply: "after the pause" },
    ]);
    expect((await agent.prompt("one")).ok).toBe(true);
    expect((await agent.prompt("two")).ok).toBe(true);
    pause(TTL_SECONDS + 1);
    expect((await agent.prompt("three")).ok).toBe(true);

    expect(calls.map((call) => isSummaryRequest(call.request))).toEqual([false, false, true, false]);
    const sent = JSON.stringify(calls[3]?.request.context);
    expect(sent).toContain("THE SUMMARY");
    expect(sent).toContain("three");
    expect(sent).not.toContain("first word");
    expect(compactions(events)).toMatchObject([
      { record: { trigger: "cold-cache", summary: "THE SUMMARY", turnsSummarised: 2, turnsKept: 1 } },
    ]);
    expect(events.find((event) => event.type === "compaction-started")).toMatchObject({
      trigger: "cold-cache",
    });
    const file = (await readFile(session.path, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    expect(file.find((entry) => entry.type === "compaction")).toMatchObject({ trigger: "cold-cache" });
  });

  it.each([
    ["while the cache is warm", { fraction: 0.3 }, TTL_SECONDS - 1],
    ["below the fraction of the window", { fraction: 0.3, window: 100_000 }, TTL_SECONDS + 1],
    ["without a known window (never a guess)", { fraction: 0.3, window: undefined }, TTL_SECONDS + 1],
    ["without the config key", { fraction: undefined }, TTL_SECONDS + 1],
  ])("does not compact %s", async (_, options, pauseSeconds) => {
    const { agent, events, calls } = coldAgent(
      [{ reply: `first ${LONG}` }, { reply: `second ${LONG}` }, { reply: "answered" }],
      options,
    );
    await agent.prompt("one");
    await agent.prompt("two");
    pause(pauseSeconds);
    expect((await agent.prompt("three")).ok).toBe(true);
    expect(calls.some((call) => isSummaryRequest(call.request))).toBe(false);
    expect(compactions(events)).toEqual([]);
    expect(JSON.stringify(calls[2]?.request.context)).toContain("first word");
  });

  it("tries once per pause: after a failed summary and a failed request, the prompt asked again goes out without a second summary request", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { fail: new PantoError("other", "summariser down") },
      { fail: new PantoError("auth", "the key was revoked") },
      { reply: "answered" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    pause(TTL_SECONDS + 1);
    expect((await agent.prompt("three")).ok).toBe(false);
    expect((await agent.prompt("three again")).ok).toBe(true);
    expect(calls.filter((call) => isSummaryRequest(call.request))).toHaveLength(1);
    expect(events.filter((event) => event.type === "compaction-failed")).toHaveLength(1);
    expect(JSON.stringify(calls.at(-1)?.request.context)).toContain("first word");
  });

  it("after a compaction, the turn's later requests (past its tool round) carry the summary and ask for none", async () => {
    const call: ToolCallBlock = { type: "tool-call", id: "call_1", name: "ls", arguments: { path: "." } };
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { reply: "THE SUMMARY" },
      { reply: "looking", calls: [call] },
      { reply: "done" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    pause(TTL_SECONDS + 1);
    expect((await agent.prompt("three")).ok).toBe(true);
    expect(calls.filter((c) => isSummaryRequest(c.request))).toHaveLength(1);
    expect(compactions(events)).toHaveLength(1);
    expect(JSON.stringify(calls[4]?.request.context)).toContain("THE SUMMARY");
  });

  it("applies the summary prepared ahead when it covers the turns: no summary request in the turn", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { reply: "PREPARED SUMMARY" },
      { reply: "after the pause" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    expect((await agent.prepareCompaction())?.prepared.turns).toBe(2);
    pause(TTL_SECONDS + 1);
    expect((await agent.prompt("three")).ok).toBe(true);
    // The one summary request is the preparation's, before the pause.
    expect(calls.map((c) => isSummaryRequest(c.request))).toEqual([false, false, true, false]);
    expect(compactions(events)).toMatchObject([
      { prepared: true, record: { trigger: "cold-cache", summary: "PREPARED SUMMARY", turnsSummarised: 2 } },
    ]);
    expect(agent.pendingCompaction()).toBeUndefined();
  });

  it("a failed summary request leaves the context whole and the turn goes on", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      // The one attempt (no compaction_model, so no fallback).
      () => {
        throw new Error("summariser down");
      },
      { reply: "answered anyway" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    pause(TTL_SECONDS + 1);
    const result = await agent.prompt("three");
    expect(result).toMatchObject({ ok: true, text: "answered anyway" });
    expect(events.some((event) => event.type === "compaction-failed")).toBe(true);
    expect(JSON.stringify(calls.at(-1)?.request.context)).toContain("first word");
  });

  it("prepareWhileCold, once the cache is cold, writes the summary before the user is back; the next prompt applies it with no summary request in its turn", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { reply: "WRITTEN WHILE AWAY" },
      { reply: "after the pause" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    // Still warm: nothing is due.
    pause(TTL_SECONDS - 1);
    expect(await agent.prepareWhileCold()).toBeUndefined();
    expect(calls).toHaveLength(2);
    pause(2);
    expect((await agent.prepareWhileCold())?.prepared.turns).toBe(2);
    expect(events.find((event) => event.type === "compaction-prepared")).toMatchObject({
      turnsSummarised: 2,
      coldCache: true,
    });
    expect(calls.map((call) => isSummaryRequest(call.request))).toEqual([false, false, true]);
    expect((await agent.prompt("three")).ok).toBe(true);
    expect(calls.map((call) => isSummaryRequest(call.request))).toEqual([false, false, true, false]);
    expect(compactions(events)).toMatchObject([
      { prepared: true, record: { trigger: "cold-cache", summary: "WRITTEN WHILE AWAY" } },
    ]);
  });

  it("a summary that failed while the user was away spends the pause's one try: the next prompt goes out without asking again", async () => {
    const { agent, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { fail: new PantoError("other", "summariser down") },
      { reply: "answered" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    pause(TTL_SECONDS + 1);
    expect(await agent.prepareWhileCold()).toBeUndefined();
    expect((await agent.prompt("three")).ok).toBe(true);
    expect(calls.map((call) => isSummaryRequest(call.request))).toEqual([false, false, true, false]);
    expect(JSON.stringify(calls.at(-1)?.request.context)).toContain("first word");
  });

  it("/summary discard of the summary written while away stands for the pause: the next prompt asks for none, and /summary said it was for that prompt", async () => {
    const { agent, events, calls } = coldAgent([
      { reply: `first ${LONG}` },
      { reply: `second ${LONG}` },
      { reply: "WRITTEN WHILE AWAY" },
      { reply: "answered" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    pause(TTL_SECONDS + 1);
    await agent.prepareWhileCold();
    expect(agent.pendingCompaction()).toMatchObject({ state: "ready", coldCache: true });
    expect(agent.discardPreparedCompaction({ byUser: true })).toBe(true);
    expect((await agent.prompt("three")).ok).toBe(true);
    expect(calls.map((call) => isSummaryRequest(call.request))).toEqual([false, false, true, false]);
    expect(compactions(events)).toEqual([]);
  });

  it("msUntilCold counts down from the latest recorded request by the cache's lifetime, and is undefined without the setting", async () => {
    const { agent } = coldAgent([{ reply: "first" }]);
    expect(agent.msUntilCold()).toBeUndefined();
    await agent.prompt("one");
    pause(100);
    expect(agent.msUntilCold()).toBe((TTL_SECONDS - 100) * 1000);
    const off = coldAgent([], { fraction: undefined });
    expect(off.agent.msUntilCold()).toBeUndefined();
  });
});
