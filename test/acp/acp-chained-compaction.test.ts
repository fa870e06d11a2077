import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { cliEnv, jsonEvents, runCli, sessionLines, tempProject } from "../e2e/run-cli.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { AcpProcess } from "./acp-harness.js";

describe("panto acp: a chained compaction", { timeout: 120_000 }, () => {
  const closeAfter = closeAfterEach();
  const processes: AcpProcess[] = [];
  afterEach(() => {
    for (const process of processes.splice(0)) process.kill();
  });

  it("shows a compaction summarised in several chunks as one entity, with the summary that took effect", async () => {
    const { home, project } = await tempProject();
    // History written against a roomy model, in the terminal...
    const roomy = closeAfter(await startFakeAnthropicServer());
    const roomyEnv = cliEnv(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: roomy.url });
    let sessionPath = "";
    let sessionId = "";
    for (let turn = 0; turn < 6; turn++) {
      roomy.enqueue({ type: "text", text: `answer-${turn}` });
      const prompt = `prompt-${turn} ${"context ".repeat(1000)}`;
      const args = turn === 0 ? ["--json"] : ["-r", sessionId, "--json"];
      const seeded = await runCli(["-m", "anthropic/roomy", ...args, "-p", prompt], {
        cwd: project,
        env: roomyEnv,
      });
      expect(seeded.code, seeded.stderr).toBe(0);
      const started = jsonEvents(seeded.stdout)[0] as { session_id: string; session_path: string };
      sessionId = started.session_id;
      sessionPath = started.session_path;
    }
    // ...continued in the editor on a model whose window cannot take the summary request whole (six
    // turns of ~2k tokens), though it holds the system prompt, the tool definitions and a turn.
    const WINDOW = 6000;
    const small = closeAfter(await startFakeAnthropicServer({ contextWindow: WINDOW }));
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: small.url });
    const acp = new AcpProcess(["-m", "anthropic/small"], { cwd: project, env });
    processes.push(acp);
    await acp.initialize({ session: { compaction: {} } });
    await acp.agent.request("session/resume", { sessionId, cwd: project, mcpServers: [] });
    const before = acp.updates(sessionId).length;
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "next step?" }],
    });
    expect(response.stopReason).toBe("end_turn");

    const updates = acp.updates(sessionId).slice(before);
    const compactionUpdates = updates.filter(
      (update): update is Extract<SessionUpdate, { sessionUpdate: "compaction_update" }> =>
        update.sessionUpdate === "compaction_update",
    );
    const ids = new Set(compactionUpdates.map((update) => update.compactionId));
    expect(ids.size).toBe(1);
    expect(compactionUpdates[0]?.status).toBe("in_progress");
    const done = compactionUpdates.at(-1);
    expect(done?.status).toBe("completed");
    const figures = done?._meta?.["panto/compaction"] as {
      chunks?: number;
      trigger?: string;
      chunking?: Record<string, unknown>;
    };
    expect(figures.trigger).toBe("overflow");
    expect(figures.chunks).toBeGreaterThan(1);
    // Why: this server counts as panto estimates, so the overflow's own figures (its stated size
    // over panto's estimate of that request) prove the whole summary request over the window.
    const summaryRequests = small.requests.filter((request) =>
      JSON.stringify(request.body).includes("<transcript>"),
    );
    expect(figures.chunking).toMatchObject({
      reason: "cut_up_front",
      model: "anthropic/small",
      contextWindow: WINDOW,
      requests: summaryRequests.length,
    });
    expect(figures.chunking?.leastTokens).toBeGreaterThan(WINDOW);

    // The summary the editor shows is the one that took effect: the last chunk's, not each chunk's.
    const shown = updates
      .flatMap((update) =>
        update.sessionUpdate === "compaction_summary_chunk" && update.content.type === "text"
          ? [update.content.text]
          : [],
      )
      .join("");
    const entry = (await sessionLines(sessionPath)).filter((line) => line.type === "compaction").at(-1);
    expect(typeof entry?.summary).toBe("string");
    expect(shown.split(entry?.summary as string)).toHaveLength(2);
    const retry = JSON.stringify(small.requests.at(-1)?.body);
    expect(retry).toContain("next step?");
    expect(retry).not.toContain("prompt-0");
    expect(updates.some((update) => update.sessionUpdate === "usage_update")).toBe(true);
  });
});
