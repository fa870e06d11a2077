import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/simulator/index.js";
import { acpProjects } from "../support/acp-project.js";
import { waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";
/** About 25,000 tokens as the fake server counts them (characters / 4); the rest of a request is near 4,000. */
const BIG = `Please read this. ${"lorem ipsum ".repeat(8_300)}`;
/** The server rejects a request above this many tokens: one BIG turn fits, two do not. */
const SERVER_WINDOW = 40_000;

type UsageUpdate = Extract<SessionUpdate, { sessionUpdate: "usage_update" }>;

/** A summary request (COMPACTION.md as the system prompt and the transcript envelope), not a chat request. */
function isSummaryRequest(request: RecordedRequest): boolean {
  const body = request.body as { tools?: unknown[] };
  return (body.tools ?? []).length === 0;
}

function text(request: RecordedRequest | undefined): string {
  return JSON.stringify(request?.body ?? null);
}

describe("panto acp: a compaction prepared before the wall (issue 34)", { timeout: 90_000 }, () => {
  const acps = acpProjects();

  async function session(config: Record<string, unknown>) {
    const { server, home, project, env } = await acps.project({ server: { contextWindow: SERVER_WINDOW } });
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(
      join(project, ".panto", "config.json"),
      JSON.stringify({ models: { [MODEL]: { context_window: SERVER_WINDOW } }, ...config }),
    );
    const acp = acps.start(["-m", MODEL], { cwd: project, env });
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const prompt = async (words: string) => {
      const { stopReason } = await acp.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: words }],
      });
      return stopReason;
    };
    const prepared = () =>
      acp
        .updates(sessionId)
        .filter((update): update is UsageUpdate => update.sessionUpdate === "usage_update")
        .flatMap((update) => {
          const meta = update._meta?.["panto/compactionPrepared"];
          return meta === undefined ? [] : [meta];
        });
    const agentText = () =>
      acp
        .updates(sessionId)
        .flatMap((update) =>
          update.sessionUpdate === "agent_message_chunk" && update.content.type === "text"
            ? [update.content.text]
            : [],
        )
        .join("");
    /** The session file's entries (the one session of this panto home). */
    const entries = async () => {
      const sessions = join(home, "sessions");
      const [folder = ""] = await readdir(sessions);
      const file = (await readdir(join(sessions, folder))).find((name) => name.endsWith(".jsonl")) ?? "";
      return (await readFile(join(sessions, folder, file), "utf8"))
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    return { server, acp, sessionId, prompt, prepared, agentText, entries };
  }

  it("applies the prepared summary at the overflow: the turn added since, which no longer fits beside a big turn in flight, is summarised on top of it in one request carrying only that turn", async () => {
    const { server, prompt, prepared, agentText, entries } = await session({ prepare_compaction_at: 0.5 });
    server.enqueue(
      { type: "text", text: "Read it." },
      { type: "text", text: "PREPARED SUMMARY of the first turn." },
    );
    expect(await prompt(BIG)).toBe("end_turn");
    // The turn ended past half the window: the summary is written in the background.
    await waitFor(() => prepared().length === 1);
    expect(prepared()[0]).toMatchObject({ model: MODEL, turnsSummarised: 1 });
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);

    // /summary shows it as pending.
    expect(await prompt("/summary")).toBe("end_turn");
    expect(agentText()).toMatch(
      /Prepared ahead, pending[^\n]*1 turn[\s\S]*PREPARED SUMMARY of the first turn\./,
    );

    server.enqueue({ type: "text", text: "Second answer, verbatim." });
    expect(await prompt("a small second turn")).toBe("end_turn");
    server.enqueue({ type: "text", text: "SUMMARY ON TOP." }, { type: "text", text: "Third answer." });
    const before = server.requests.length;
    expect(await prompt(BIG)).toBe("end_turn");
    // The rejected request, one summary request, the retry. (That turn ended past half the window
    // too, so the next summary may be being prepared after it.)
    const sent = server.requests.slice(before);
    expect(sent.slice(0, 3).map(isSummaryRequest)).toEqual([false, true, false]);
    // The summary request carries the prepared summary and the second turn, not the first turn again.
    const asked = text(sent[1]);
    expect(asked).toContain("PREPARED SUMMARY of the first turn.");
    expect(asked).toContain("a small second turn");
    expect(asked).not.toContain("Read it.");
    // The retry keeps what v1 keeps: the turn in flight alone, after the summary.
    const retry = text(sent[2]);
    expect(retry).toContain("SUMMARY ON TOP.");
    expect(retry).not.toContain("Second answer, verbatim.");
    // The entry v1 writes for an overflow, both summary requests' usage on it (what /cost counts).
    const compactions = (await entries()).filter((entry) => entry.type === "compaction");
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({
      trigger: "overflow",
      summary: "SUMMARY ON TOP.",
      turnsSummarised: 2,
      turnsKept: 1,
      usage: [{ model: MODEL }, { model: MODEL }],
    });
    expect(agentText()).toContain("Third answer.");
  });

  it("discards the prepared summary after a rewind, and the overflow then asks for a new one as v1 does", async () => {
    const { server, prompt, prepared } = await session({ prepare_compaction_at: 0.5 });
    server.enqueue({ type: "text", text: "Read it." }, { type: "text", text: "STALE SUMMARY." });
    await prompt(BIG);
    await waitFor(() => prepared().length === 1);
    server.enqueue({ type: "text", text: "Second." });
    await prompt("second");
    expect(await prompt("/rewind 2 --conversation")).toBe("end_turn");
    server.enqueue({ type: "text", text: "FRESH SUMMARY." }, { type: "text", text: "Answer." });
    const before = server.requests.length;
    expect(await prompt(BIG)).toBe("end_turn");
    const sent = server.requests.slice(before);
    // Rejected, a new summary request, the retry.
    expect(sent.slice(0, 3).map(isSummaryRequest)).toEqual([false, true, false]);
    expect(text(sent[2])).toContain("FRESH SUMMARY.");
    expect(text(sent[2])).not.toContain("STALE SUMMARY.");
  });

  it("/summary discard drops it, and the overflow asks for a new summary", async () => {
    const { server, prompt, prepared, agentText } = await session({ prepare_compaction_at: 0.5 });
    server.enqueue({ type: "text", text: "Read it." }, { type: "text", text: "DROPPED SUMMARY." });
    await prompt(BIG);
    await waitFor(() => prepared().length === 1);
    await prompt("/summary discard");
    expect(agentText()).toContain("The summary prepared ahead is discarded");
    server.enqueue({ type: "text", text: "FRESH SUMMARY." }, { type: "text", text: "Answer." });
    const before = server.requests.length;
    await prompt(BIG);
    const sent = server.requests.slice(before);
    expect(sent.slice(0, 3).map(isSummaryRequest)).toEqual([false, true, false]);
    expect(text(sent[2])).toContain("FRESH SUMMARY.");
  });

  it("prepares nothing without prepare_compaction_at: the overflow compacts as v1 does", async () => {
    const { server, prompt, prepared } = await session({});
    server.enqueue({ type: "text", text: "Read it." });
    await prompt(BIG);
    server.enqueue({ type: "text", text: "V1 SUMMARY." }, { type: "text", text: "Answer." });
    await prompt(BIG);
    expect(server.requests.map(isSummaryRequest)).toEqual([false, false, true, false]);
    expect(text(server.requests[3])).toContain("V1 SUMMARY.");
    expect(prepared()).toEqual([]);
  });
});
