import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentEvent } from "../../src/agent/index.js";
import type { ModelClient } from "../../src/core/index.js";
import { openSession, type Session } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { overflow, type ScriptStep, scriptedClients } from "./scripted-client.js";

let dir: string;
let session: Session;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-prepared-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});

afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

const isSummaryRequest = (request: { systemPrompt: string }) => request.systemPrompt.startsWith("COMPACT");

/**
 * An agent over a scripted client whose summary requests wait for `release` (a summary still being
 * written in the background when the overflow comes).
 */
function gatedAgent(steps: ScriptStep[]) {
  const scripted = scriptedClients(steps);
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const createClient = (modelId: string): ModelClient => {
    const client = scripted.createClient(modelId);
    return {
      ...client,
      stream: async (request, options) => {
        if (isSummaryRequest(request)) await gate;
        return client.stream(request, options);
      },
    };
  };
  const events: AgentEvent[] = [];
  const agent = new Agent({
    session,
    model: "fake/active",
    createClient,
    tools: createDefaultTools(),
    systemPrompt: "SYSTEM",
    compactionPrompt: "COMPACT THE TRANSCRIPT",
    keepVerbatimTokens: 0,
    approve: async () => "allow",
    onEvent: (event) => events.push(event),
    cwd: dir,
  });
  return { agent, events, calls: scripted.calls, release };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(check()).toBe(true);
}

describe("Agent: a compaction prepared ahead", () => {
  it("an overflow while the summary is still being written waits for it and applies it: one summary request, the record v1 writes", async () => {
    // In the order the requests reach the model: the summary is held back until released.
    const { agent, events, calls, release } = gatedAgent([
      { reply: "first answer" },
      { fail: overflow() },
      { reply: "PREPARED SUMMARY" },
      { reply: "after the retry" },
    ]);
    expect((await agent.prompt("one")).ok).toBe(true);
    const preparing = agent.prepareCompaction();
    await until(() => agent.pendingCompaction()?.state === "writing");
    const answer = agent.prompt("two");
    await until(() => calls.length === 2);
    release();
    const result = await answer;
    expect(result.ok).toBe(true);
    await preparing;
    expect(calls.filter((call) => isSummaryRequest(call.request))).toHaveLength(1);
    const compaction = events.find((event) => event.type === "compaction");
    expect(compaction).toMatchObject({
      prepared: true,
      record: { trigger: "overflow", summary: "PREPARED SUMMARY", turnsSummarised: 1, turnsKept: 1 },
    });
    // The retry: the prepared summary, then the turn in flight verbatim.
    expect(JSON.stringify(calls[3]?.request.context)).toContain("PREPARED SUMMARY");
    expect(JSON.stringify(calls[3]?.request.context)).toContain("two");
    const lines = (await readFile(session.path, "utf8")).split("\n").filter((line) => line !== "");
    const entry = lines.map((line) => JSON.parse(line)).find((parsed) => parsed.type === "compaction");
    expect(entry.trigger).toBe("overflow");
    expect(entry.summary).toBe("PREPARED SUMMARY");
    expect(entry.turnsKept).toBe(1);
    expect(agent.pendingCompaction()).toBeUndefined();
  });

  it("a cancel while the overflow waits for a summary being written ends the turn as cancelled, nothing compacted", async () => {
    const { agent, events, calls, release } = gatedAgent([
      { reply: "first answer" },
      { fail: overflow() },
      { reply: "PREPARED SUMMARY" },
    ]);
    await agent.prompt("one");
    const preparing = agent.prepareCompaction();
    await until(() => agent.pendingCompaction()?.state === "writing");
    const controller = new AbortController();
    const answer = agent.prompt("two", { signal: controller.signal });
    await until(() => calls.length === 2);
    controller.abort();
    const result = await answer;
    expect(!result.ok && result.error.code).toBe("aborted");
    expect(events.some((event) => event.type === "compaction")).toBe(false);
    release();
    await preparing;
    await agent.closePreparation();
  });

  it("prepares once: a second call while one is held asks nothing, and discard drops it once", async () => {
    const { agent, calls, release } = gatedAgent([{ reply: "first answer" }, { reply: "PREPARED" }]);
    release();
    await agent.prompt("one");
    const first = await agent.prepareCompaction();
    expect(first?.prepared.turns).toBe(1);
    expect(await agent.prepareCompaction()).toBeUndefined();
    expect(calls.filter((call) => isSummaryRequest(call.request))).toHaveLength(1);
    expect(agent.discardPreparedCompaction()).toBe(true);
    expect(agent.discardPreparedCompaction()).toBe(false);
  });

  it("writes the turns added since on top of the held summary when they outgrow the keep budget (an overflow would refuse it as it is)", async () => {
    // keepVerbatimTokens is 0: any turn added after the prepared prefix is more than an overflow keeps.
    const { agent, calls, release } = gatedAgent([
      { reply: "first answer" },
      { reply: "PREPARED ONE" },
      { reply: "second answer" },
      { reply: "PREPARED TWO" },
    ]);
    release();
    await agent.prompt("one");
    expect((await agent.prepareCompaction())?.prepared.turns).toBe(1);
    await agent.prompt("two");
    const fresh = await agent.prepareCompaction();
    expect(fresh?.prepared).toMatchObject({ turns: 2, summary: { summary: "PREPARED TWO" } });
    const summaries = calls.filter((call) => isSummaryRequest(call.request));
    expect(summaries).toHaveLength(2);
    // The second request carries only turn two, with the held summary as its previous summary.
    const second = JSON.stringify(summaries[1]?.request.context.messages);
    expect(second).toContain("<previous-summary>");
    expect(second).toContain("PREPARED ONE");
    expect(second).toContain("second answer");
    expect(second).not.toContain("first answer");
    expect(agent.pendingCompaction()).toMatchObject({ state: "ready", turns: 2, summary: "PREPARED TWO" });
  });

  it("keeps the summary held across a clearing of old tool results and its undo: the turns it stands for did not change", async () => {
    const call = {
      type: "tool-call" as const,
      id: "toolu_old",
      name: "bash",
      arguments: { command: "echo OLD" },
    };
    const { agent, calls, release } = gatedAgent([
      { reply: "", calls: [call] },
      { reply: "first answer" },
      { reply: "PREPARED" },
    ]);
    release();
    await agent.prompt("one");
    expect((await agent.prepareCompaction())?.prepared.turns).toBe(1);
    const clearing = await session.appendClearing({
      results: [{ toolCallId: "toolu_old", toolName: "bash", tokens: 10, stub: "[cleared to save context]" }],
      tokensBefore: 100,
      tokensAfter: 60,
      reason: "trigger",
    });
    expect(JSON.stringify(session.effectiveContext().messages)).toContain("[cleared to save context]");
    expect(agent.pendingCompaction()).toMatchObject({ state: "ready", turns: 1, summary: "PREPARED" });
    await session.appendUnclear({ clearingId: clearing.id, tokensBefore: 60, tokensAfter: 100 });
    expect(agent.pendingCompaction()).toMatchObject({ state: "ready", turns: 1 });
    // Held, so asking again writes nothing new.
    expect(await agent.prepareCompaction()).toBeUndefined();
    expect(calls.filter((request) => isSummaryRequest(request.request))).toHaveLength(1);
  });
});
