import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { FakeReply, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { acpProjects } from "../support/acp-project.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const SUMMARY = "SUMMARY-OF-EARLIER-WORK: the user asked questions about the parser.";
const OVERFLOW_BODY = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 212345 tokens > 200000 maximum" },
});

/** Overflows on the first request carrying "overflowing" without a summary; summaries fail when told to. */
function responder(failSummaries: boolean) {
  return (request: RecordedRequest): FakeReply => {
    const text = JSON.stringify(request.body);
    if (text.includes("<transcript>"))
      return failSummaries
        ? {
            type: "error",
            status: 500,
            body: JSON.stringify({ type: "error", error: { type: "api_error", message: "boom" } }),
          }
        : { type: "text", text: SUMMARY };
    if (text.includes("overflowing") && !text.includes("SUMMARY-OF-EARLIER-WORK"))
      return { type: "error", status: 400, body: OVERFLOW_BODY };
    return {
      type: "text",
      text: `An answer. ${"Details about the parser. ".repeat(20)}`,
      usage: { input: 1200, output: 80 },
    };
  };
}

describe("panto acp: compaction the editor sees", { timeout: 90_000 }, () => {
  const acps = acpProjects();

  async function start(options: { entities: boolean; failSummaries?: boolean; keepTokens?: number }) {
    const { server, home, project, env } = await acps.project({
      server: { responder: responder(options.failSummaries === true) },
      env: () => ({ PANTO_MAX_RETRIES: "0" }),
    });
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(
      join(project, ".panto", "config.json"),
      JSON.stringify({
        keep_verbatim_tokens: options.keepTokens ?? 0,
        prices: { [MODEL]: { input_per_mtok: 3, output_per_mtok: 15 } },
      }),
    );
    const acp = acps.start(["-m", MODEL], { cwd: project, env });
    await acp.initialize(options.entities ? { session: { compaction: {} } } : {});
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const prompt = async (text: string, meta?: Record<string, unknown>) =>
      (
        await acp.agent.request("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text }],
          ...(meta === undefined ? {} : { _meta: meta }),
        })
      ).stopReason;
    return { server, project, home, env, acp, sessionId, prompt };
  }

  it("shows an overflow compaction and /compact as compaction entities with the summary streamed, then the smaller usage", async () => {
    const { acp, sessionId, prompt } = await start({ entities: true });
    expect(await prompt("question one")).toBe("end_turn");
    expect(await prompt("question two")).toBe("end_turn");
    const before = acp.updates(sessionId).length;
    expect(await prompt("the overflowing question")).toBe("end_turn");
    const turn = acp.updates(sessionId).slice(before);
    const kinds = turn.map((update) => update.sessionUpdate);
    const started = kinds.indexOf("compaction_update");
    const chunk = kinds.indexOf("compaction_summary_chunk");
    const completed = turn.findIndex(
      (update) => update.sessionUpdate === "compaction_update" && update.status === "completed",
    );
    expect(started).toBeGreaterThanOrEqual(0);
    expect(turn[started]).toMatchObject({ status: "in_progress" });
    expect(chunk).toBeGreaterThan(started);
    expect(completed).toBeGreaterThan(chunk);
    const ids = new Set(turn.flatMap((update) => ("compactionId" in update ? [update.compactionId] : [])));
    expect(ids.size).toBe(1);
    const summary = turn.flatMap((update) =>
      update.sessionUpdate === "compaction_summary_chunk" && update.content.type === "text"
        ? [update.content.text]
        : [],
    );
    expect(summary.join("")).toContain(SUMMARY);
    expect(turn[completed]?._meta?.["panto/compaction"]).toMatchObject({ trigger: "overflow", model: MODEL });
    const usageAfter = turn.slice(completed).find((update) => update.sessionUpdate === "usage_update");
    expect(usageAfter).toMatchObject({ size: 200000, used: expect.any(Number) });
    const lastUsage = turn.filter((update) => update.sessionUpdate === "usage_update").at(-1);
    expect(lastUsage?.sessionUpdate === "usage_update" ? lastUsage.cost : undefined).toMatchObject({
      amount: expect.any(Number),
      currency: "USD",
    });

    const beforeManual = acp.updates(sessionId).length;
    expect(await prompt("/compact keep the bug list")).toBe("end_turn");
    const manual = acp.updates(sessionId).slice(beforeManual);
    expect(
      manual.map((update) => update.sessionUpdate).filter((kind) => kind.startsWith("compaction")),
    ).toEqual(["compaction_update", "compaction_summary_chunk", "compaction_update"]);
    const done = manual.filter((update) => update.sessionUpdate === "compaction_update").at(-1);
    expect(done).toMatchObject({ status: "completed" });
    expect(done?._meta?.["panto/compaction"]).toMatchObject({
      trigger: "manual",
      instructions: "keep the bug list",
    });
    // The outcome is the entity's, not prose as well.
    expect(manual.some((update) => update.sessionUpdate === "agent_message_chunk")).toBe(false);
    expect(manual.at(-1)?.sessionUpdate).toBe("usage_update");
  });

  it("compacts a conversation that fits the budget when the prompt's _meta says panto/compact force (issue 42)", async () => {
    const { acp, sessionId, prompt, server } = await start({ entities: true, keepTokens: 100_000 });
    await prompt("question one");
    await prompt("question two");
    let before = acp.updates(sessionId).length;
    expect(await prompt("/compact")).toBe("end_turn");
    const plain = acp.updates(sessionId).slice(before);
    expect(plain.some((update) => update.sessionUpdate === "compaction_update")).toBe(false);
    expect(messageText(plain)).toContain("/compact --force");
    const requests = server.requests.length;

    before = acp.updates(sessionId).length;
    expect(await prompt("/compact", { "panto/compact": { force: true } })).toBe("end_turn");
    const forced = acp.updates(sessionId).slice(before);
    const done = forced.filter((update) => update.sessionUpdate === "compaction_update").at(-1);
    expect(done).toMatchObject({ status: "completed" });
    expect(done?._meta?.["panto/compaction"]).toMatchObject({
      trigger: "manual",
      turnsSummarised: 1,
      turnsKept: 1,
    });
    expect(server.requests).toHaveLength(requests + 1);
    const transcript = JSON.stringify(server.requests.at(-1)?.body);
    expect(transcript).toContain("question one");
    expect(transcript).not.toContain("question two");
  });

  it("says the same compactions as agent text when the client does not advertise session.compaction", async () => {
    const { acp, sessionId, prompt } = await start({ entities: false });
    await prompt("question one");
    await prompt("question two");
    const before = acp.updates(sessionId).length;
    await prompt("the overflowing question");
    const turn = acp.updates(sessionId).slice(before);
    expect(turn.some((update) => update.sessionUpdate.startsWith("compaction"))).toBe(false);
    const text = messageText(turn);
    expect(text).toContain("Context overflow");
    expect(text).toContain(SUMMARY);
    const manualStart = acp.updates(sessionId).length;
    await prompt("/compact");
    expect(messageText(acp.updates(sessionId).slice(manualStart))).toContain(SUMMARY);
  });

  it("reports a failed /compact as a failed entity with its error, or as text without the capability", async () => {
    for (const entities of [true, false]) {
      const { acp, sessionId, prompt } = await start({ entities, failSummaries: true });
      await prompt("question one");
      await prompt("question two");
      const before = acp.updates(sessionId).length;
      expect(await prompt("/compact")).toBe("end_turn");
      const updates = acp.updates(sessionId).slice(before);
      if (entities) {
        const failed = updates.find(
          (update) => update.sessionUpdate === "compaction_update" && update.status === "failed",
        );
        expect(failed).toMatchObject({ error: expect.stringMatching(/\S/) });
      } else {
        expect(updates.some((update) => update.sessionUpdate.startsWith("compaction"))).toBe(false);
        expect(messageText(updates)).toMatch(/compaction/i);
      }
    }
  });

  it("reports /pin, /uncompact, /compact --preview and /summary edit outcomes as data under _meta panto/outcome", async () => {
    const { acp, sessionId, prompt, server } = await start({ entities: true });
    await prompt("question one");
    await prompt("question two");
    let before = acp.updates(sessionId).length;
    await prompt("/pin the parser must stay streaming");
    const pinned = acp
      .updates(sessionId)
      .slice(before)
      .find((update) => update.sessionUpdate === "agent_message_chunk");
    expect(pinned?._meta?.["panto/outcome"]).toMatchObject({ command: "pin", type: "pinned" });
    await prompt("/compact");
    before = acp.updates(sessionId).length;
    await prompt("/uncompact");
    const undone = acp.updates(sessionId).slice(before);
    expect(
      undone.find((update) => update.sessionUpdate === "compaction_update")?._meta?.["panto/undone"],
    ).toBeDefined();
    const text = undone.find((update) => update.sessionUpdate === "agent_message_chunk");
    expect(text?._meta?.["panto/outcome"]).toMatchObject({ command: "uncompact", type: "uncompacted" });

    const outcomeOf = async (command: string) => {
      const from = acp.updates(sessionId).length;
      expect(await prompt(command)).toBe("end_turn");
      return acp
        .updates(sessionId)
        .slice(from)
        .find((update) => update.sessionUpdate === "agent_message_chunk")?._meta?.["panto/outcome"];
    };
    expect(await outcomeOf("/compact --preview")).toMatchObject({
      command: "compact",
      type: "compaction-preview",
    });
    await prompt("/compact");
    expect(await outcomeOf("/summary edit THE-EDITOR-USER'S-OWN-SUMMARY")).toMatchObject({
      command: "summary",
      type: "summary-edited",
    });
    await prompt("question three");
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("THE-EDITOR-USER'S-OWN-SUMMARY");
  });
});

function messageText(updates: readonly SessionUpdate[]): string {
  return updates
    .flatMap((update) =>
      update.sessionUpdate === "agent_message_chunk" && update.content.type === "text"
        ? [update.content.text]
        : [],
    )
    .join("");
}
