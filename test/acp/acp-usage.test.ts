import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { cliEnv, tempProject } from "../e2e/run-cli.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { AcpProcess } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

type UsageUpdate = Extract<SessionUpdate, { sessionUpdate: "usage_update" }>;

describe("panto acp: usage_update before any overflow (issue 42)", { timeout: 60_000 }, () => {
  const closeAfter = closeAfterEach();
  const processes: AcpProcess[] = [];
  afterEach(() => {
    for (const process of processes.splice(0)) process.kill();
  });

  async function promptOnce(config: Record<string, unknown>): Promise<UsageUpdate[]> {
    const server = closeAfter(await startFakeAnthropicServer());
    server.enqueue({ type: "text", text: "An answer.", usage: { input: 3000, output: 200 } });
    const { home, project } = await tempProject();
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify(config));
    const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url });
    const acp = new AcpProcess(["-m", MODEL], { cwd: project, env });
    processes.push(acp);
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
