import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";

const MODEL = "anthropic/claude-sonnet-4-5";

type UsageUpdate = Extract<SessionUpdate, { sessionUpdate: "usage_update" }>;

describe("panto acp: usage_update before any overflow (issue 42)", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  async function promptOnce(config: Record<string, unknown>): Promise<UsageUpdate[]> {
    const { server, project, env } = await acps.project();
    server.enqueue({ type: "text", text: "An answer.", usage: { input: 3000, output: 200 } });
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify(config));
    const acp = acps.start(["-m", MODEL], { cwd: project, env });
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const { stopReason } = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "hello" }],
    });
    expect(stopReason).toBe("end_turn");
    return acp
      .updates(sessionId)
      .filter((update): update is UsageUpdate => update.sessionUpdate === "usage_update");
  }

  it("is sent for a model whose window comes from panto's table, with the next request's size", async () => {
    const updates = await promptOnce({});
    const last = updates.at(-1);
    // 3,000 prompt tokens + 200 output tokens the next request re-sends, of Anthropic's published 200k.
    expect(last).toMatchObject({ used: 3200, size: 200_000 });
    expect(last?._meta?.["panto/usage"]).toEqual({ usedFrom: "usage", sizeFrom: "published" });
  });

  it("takes the window config `models` sets for the model", async () => {
    const updates = await promptOnce({ models: { [MODEL]: { context_window: 64_000 } } });
    expect(updates.at(-1)).toMatchObject({ used: 3200, size: 64_000 });
    expect(updates.at(-1)?._meta?.["panto/usage"]).toEqual({ usedFrom: "usage", sizeFrom: "configured" });
  });
});
