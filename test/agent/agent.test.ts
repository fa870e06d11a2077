import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, type AgentEvent, type AgentOptions } from "../../src/agent/index.js";
import type { Message } from "../../src/core/index.js";
import { PantoError } from "../../src/core/index.js";
import { openSession, recallPointer, type Session } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { overflow, type ScriptStep, scriptedClients } from "./scripted-client.js";

let dir: string;
let session: Session;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-agent-"));
  session = await openSession(join(dir, "s.jsonl"), { cwd: dir });
});

afterEach(async () => {
  await session.close();
  await rm(dir, { recursive: true, force: true });
});

function makeAgent(steps: ScriptStep[], overrides: Partial<AgentOptions> = {}) {
  const scripted = scriptedClients(steps);
  const events: AgentEvent[] = [];
  const agent = new Agent({
    session,
    model: "fake/active",
    createClient: scripted.createClient,
    tools: createDefaultTools(),
    systemPrompt: "SYSTEM",
    compactionPrompt: "COMPACT THE TRANSCRIPT",
    keepVerbatimTokens: 0,
    approve: async () => "allow",
    onEvent: (event) => events.push(event),
    cwd: dir,
    ...overrides,
  });
  return { agent, events, ...scripted };
}

function texts(messages: readonly Message[]): string[] {
  return messages.map((m) =>
    m.content
      .map((b) => ("text" in b ? b.text : b.type === "tool-result" ? `result:${b.toolName}` : b.type))
      .join(""),
  );
}

const isCompactionRequest = (request: { systemPrompt: string }) => request.systemPrompt.startsWith("COMPACT");

describe("Agent overflow recovery", () => {
  it("compacts on overflow and retries the failed request exactly once, against summary plus the turn in flight", async () => {
    const { agent, calls, events } = makeAgent([
      { reply: "first answer" },
      { reply: "second answer" },
      { fail: overflow() },
      { reply: "SUMMARY OF ONE AND TWO" },
      { reply: "third answer after compaction" },
    ]);
    expect((await agent.prompt("one")).ok).toBe(true);
    expect((await agent.prompt("two")).ok).toBe(true);
    const result = await agent.prompt("three");

    expect(result).toEqual({ ok: true, text: "third answer after compaction" });
    expect(calls).toHaveLength(5);
    const summaryCall = calls[3]!;
    expect(isCompactionRequest(summaryCall.request)).toBe(true);
    expect(summaryCall.request.tools).toEqual([]);
    const retry = calls[4]!.request;
    expect(retry.systemPrompt).toBe("SYSTEM");
    // The block: the summary, then which turns it stands for (turns 1 and 2; "three" is in flight).
    expect(retry.context.compaction).toEqual({
      type: "compaction",
      summary: `SUMMARY OF ONE AND TWO\n\n${recallPointer(2)}`,
    });
    expect(texts(retry.context.messages)).toEqual(["three"]);
    expect(events.filter((e) => e.type === "overflow-retry")).toHaveLength(1);
    const compaction = events.find((e) => e.type === "compaction");
    expect(compaction?.type === "compaction" && compaction.record.trigger).toBe("overflow");
    expect(texts(agent.effectiveContext().messages)).toEqual(["three", "third answer after compaction"]);
  });

  it("surfaces an overflow that survives the retry with only the message left beside the summary as the message being too large, undoes that compaction, and the next prompt starts from the context before it", async () => {
    const { agent, calls } = makeAgent([
      { reply: "a1" },
      { fail: overflow() },
      { reply: "SUMMARY" },
      { fail: overflow() },
      { reply: "fine now" },
    ]);
    await agent.prompt("small");
    const failed = await agent.prompt("huge paste");
    expect(failed.ok).toBe(false);
    expect(!failed.ok && failed.error.code).toBe("context_overflow");
    expect(!failed.ok && failed.hint).toContain("s.jsonl");
    expect(!failed.ok && failed.error.message).toMatch(/your message is too large on its own/);
    expect(!failed.ok && failed.hint).not.toMatch(/\/compact/);
    expect(calls).toHaveLength(4);
    expect(agent.effectiveContext().compaction).toBeUndefined();
    expect(texts(agent.effectiveContext().messages)).toEqual(["small", "a1"]);

    expect(await agent.prompt("next")).toEqual({ ok: true, text: "fine now" });
    expect(texts(calls[4]!.request.context.messages)).toEqual(["small", "a1", "next"]);
  });

  it("gives the window learned from an overflow's numbers for the active model only, as the status line reads it", async () => {
    const stated = new PantoError("context_overflow", "prompt is too long: 90000 tokens > 64000 maximum", {
      status: 400,
      requestTokens: 90000,
      contextWindow: 64000,
    });
    const { agent } = makeAgent([{ reply: "a1" }, { fail: stated }, { reply: "SUMMARY" }, { reply: "a2" }]);
    expect(agent.learnedWindow()).toBeUndefined();
    await agent.prompt("small");
    expect(await agent.prompt("bigger")).toEqual({ ok: true, text: "a2" });
    expect(agent.learnedWindow()).toMatchObject({ contextWindow: 64000, requestTokens: 90000 });
    agent.setModel("fake/other");
    expect(agent.learnedWindow()).toBeUndefined();
  });

  it("fails at once without a model call when nothing is older than the turn in flight", async () => {
    const { agent, calls, events } = makeAgent([{ fail: overflow() }]);
    const result = await agent.prompt("the very first prompt is already too big");
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe("context_overflow");
    expect(calls).toHaveLength(1);
    expect(events.some((e) => e.type === "compaction-skipped")).toBe(true);
    expect(agent.effectiveContext().messages).toEqual([]);
  });

  it("never re-runs tools when the request after them overflows", async () => {
    const file = join(dir, "note.txt");
    const { agent, calls } = makeAgent([
      { reply: "earlier" },
      {
        reply: "writing",
        calls: [{ type: "tool-call", id: "c1", name: "bash", arguments: { command: `echo run >> ${file}` } }],
      },
      { fail: overflow() },
      { reply: "SUMMARY" },
      { reply: "done" },
    ]);
    await agent.prompt("earlier prompt");
    const result = await agent.prompt("append a line");
    expect(result).toEqual({ ok: true, text: "done" });
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(file, "utf8")).toBe("run\n");
    const retried = calls[4]!.request.context.messages;
    expect(retried.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("keeps a failed turn in the file but out of the effective context", async () => {
    const { agent, calls } = makeAgent([
      { reply: "ok" },
      { fail: new PantoError("auth", "bad key", { status: 401 }) },
      { reply: "back" },
    ]);
    await agent.prompt("hello");
    const failed = await agent.prompt("this one fails");
    expect(!failed.ok && failed.error.code).toBe("auth");
    expect(texts(agent.effectiveContext().messages)).toEqual(["hello", "ok"]);
    await agent.prompt("again");
    expect(texts(calls[2]!.request.context.messages)).toEqual(["hello", "ok", "again"]);
    const { readFile } = await import("node:fs/promises");
    expect(await readFile(session.path, "utf8")).toContain("this one fails");
  });
});

describe("Agent compaction model selection", () => {
  const failures: Array<[string, ScriptStep]> = [
    ["overflow", { fail: overflow() }],
    ["unknown model", { fail: new PantoError("invalid_request", "model not found", { status: 404 }) }],
    ["server error", { fail: new PantoError("server", "500", { status: 500 }) }],
    ["empty summary", { reply: "   " }],
  ];
  for (const [name, failure] of failures) {
    it(`falls back to the active model exactly once when compaction_model fails (${name})`, async () => {
      const { agent, calls } = makeAgent(
        [{ reply: "a1" }, { reply: "a2" }, failure, { reply: "SUMMARY BY ACTIVE" }],
        {
          compactionModel: "fake/small",
        },
      );
      await agent.prompt("one");
      await agent.prompt("two");
      const outcome = await agent.compact();
      expect(outcome.type).toBe("compacted");
      expect(calls.map((c) => c.modelId)).toEqual([
        "fake/active",
        "fake/active",
        "fake/small",
        "fake/active",
      ]);
      if (outcome.type === "compacted") {
        expect(outcome.record.fellBack).toBe(true);
        expect(outcome.record.model).toBe("fake/active");
      }
    });
  }

  it("reports a failed compaction and leaves the effective context unchanged when both models fail", async () => {
    const { agent, events } = makeAgent(
      [{ reply: "a1" }, { reply: "a2" }, { fail: overflow() }, { fail: new PantoError("server", "down") }],
      { compactionModel: "fake/small" },
    );
    await agent.prompt("one");
    await agent.prompt("two");
    const before = agent.effectiveContext();
    const outcome = await agent.compact();
    expect(outcome.type).toBe("failed");
    expect(agent.effectiveContext()).toEqual(before);
    expect(events.some((e) => e.type === "compaction-failed")).toBe(true);
  });

  it("records a failed overflow compaction with every attempt as data, then the failed turn, and nothing says compacted", async () => {
    const { agent, events } = makeAgent(
      [
        { reply: "a1" },
        { fail: overflow() },
        { fail: new PantoError("invalid_request", "no such model") },
        { fail: new PantoError("server", "down") },
      ],
      { compactionModel: "fake/small" },
    );
    await agent.prompt("one");
    const before = agent.effectiveContext();
    const result = await agent.prompt("two");
    expect(result.ok).toBe(false);
    expect(agent.effectiveContext()).toEqual(before);
    const entries = session.activeEntries();
    const failed = entries.find((entry) => entry.type === "compaction-failed");
    expect(failed).toMatchObject({
      trigger: "overflow",
      attempts: [
        { model: "fake/small", code: "invalid_request", message: "no such model" },
        { model: "fake/active", code: "server", message: "down" },
      ],
    });
    expect(entries.at(-1)?.type).toBe("turn-failed");
    expect(events.filter((e) => e.type === "compaction-attempt-failed").map((e) => e.type)).toHaveLength(2);
    expect(events.find((e) => e.type === "compaction-failed")).toMatchObject({
      durationMs: expect.any(Number),
    });
    expect(events.some((e) => e.type === "warning")).toBe(false);
    expect(JSON.stringify(events)).not.toMatch(/compacted/i);
  });

  it("restores the paths, commands and errors the summary left out, unless restoreFacts is false", async () => {
    for (const restoreFacts of [true, false]) {
      const { agent, events } = makeAgent(
        [
          {
            reply: "",
            calls: [{ type: "tool-call", id: "c1", name: "read", arguments: { path: "no/such-file.ts" } }],
          },
          { reply: "looked" },
          { reply: "a2" },
          { reply: "SUMMARY WITHOUT DETAILS" },
        ],
        { restoreFacts },
      );
      await agent.prompt("one");
      await agent.prompt("two");
      const outcome = await agent.compact();
      expect(outcome.type).toBe("compacted");
      const compaction = events.find((e) => e.type === "compaction");
      const restored = compaction?.type === "compaction" ? compaction.record.restored : undefined;
      if (restoreFacts) {
        expect(restored).toContainEqual({ kind: "path", text: "no/such-file.ts" });
        expect(agent.effectiveContext().compaction?.summary).toContain("- path: no/such-file.ts");
      } else {
        expect(restored).toBeUndefined();
        expect(agent.effectiveContext().compaction?.summary).toBe(
          `SUMMARY WITHOUT DETAILS\n\n${recallPointer(2)}`,
        );
      }
      await session.close();
      session = await openSession(join(dir, `s-${restoreFacts}.jsonl`), { cwd: dir });
    }
  });

  it("makes no model call for /compact when everything fits the budget", async () => {
    const { agent, calls } = makeAgent([{ reply: "a1" }], { keepVerbatimTokens: 100_000 });
    await agent.prompt("one");
    const outcome = await agent.compact("keep it all");
    expect(outcome.type).toBe("nothing-to-summarise");
    expect(calls).toHaveLength(1);
  });

  it("puts /compact instructions in the compaction system prompt and never in the conversation", async () => {
    const { agent, calls } = makeAgent([{ reply: "a1" }, { reply: "a2" }, { reply: "SUMMARY" }]);
    await agent.prompt("one");
    await agent.prompt("two");
    await agent.compact("keep bugs #3 and #4");
    const request = calls[2]!.request;
    expect(request.systemPrompt).toContain("## Additional instructions for this compaction run");
    expect(request.systemPrompt).toContain("keep bugs #3 and #4");
    expect(JSON.stringify(request.context)).not.toContain("keep bugs #3 and #4");
    expect(JSON.stringify(agent.effectiveContext().messages)).not.toContain("keep bugs");
  });

  it("runs one compaction at a time: a second /compact sees the first one's result", async () => {
    const { agent, calls } = makeAgent([
      { reply: "a1" },
      { reply: "a2" },
      { reply: "SUMMARY" },
      { reply: "S2" },
    ]);
    await agent.prompt("one");
    await agent.prompt("two");
    const [first, second] = await Promise.all([agent.compact(), agent.compact()]);
    expect(first.type).toBe("compacted");
    // Had the two raced, both would have read the same two turns and both would have called the model.
    expect(second.type).toBe("nothing-to-summarise");
    expect(calls).toHaveLength(3);
  });
});

describe("Agent interruption", () => {
  it("keeps an interrupted turn whose tools already ran, so the model still sees what it changed", async () => {
    const controller = new AbortController();
    const file = join(dir, "made.txt");
    const { agent, calls } = makeAgent([
      {
        reply: "creating",
        calls: [{ type: "tool-call", id: "w1", name: "write", arguments: { path: file, content: "x" } }],
      },
      () => {
        controller.abort();
        return { fail: new PantoError("aborted", "request aborted") };
      },
      { reply: "next answer" },
    ]);
    const interrupted = await agent.prompt("make a file", { signal: controller.signal });
    expect(!interrupted.ok && interrupted.error.code).toBe("aborted");
    await agent.prompt("and now?");
    const roles = calls[2]!.request.context.messages.map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "tool", "user"]);
  });

  it("drops an interrupted prompt that got no answer", async () => {
    const controller = new AbortController();
    const { agent, calls } = makeAgent([
      () => {
        controller.abort();
        return { fail: new PantoError("aborted", "request aborted") };
      },
      { reply: "fine" },
    ]);
    await agent.prompt("oops, wrong prompt", { signal: controller.signal });
    await agent.prompt("the right prompt");
    expect(texts(calls[1]!.request.context.messages)).toEqual(["the right prompt"]);
  });
});
