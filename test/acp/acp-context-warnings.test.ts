import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";
import { waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

/** About 25,000 tokens as the fake server counts them (characters / 4), the rest of a request being near 4,000. */
const BIG = `Please read this. ${"lorem ipsum ".repeat(8_300)}`;

type UsageUpdate = Extract<SessionUpdate, { sessionUpdate: "usage_update" }>;

function warningsIn(updates: readonly SessionUpdate[]): unknown[] {
  return updates
    .filter((update): update is UsageUpdate => update.sessionUpdate === "usage_update")
    .flatMap((update) => {
      const warning = update._meta?.["panto/contextWarning"];
      return warning === undefined ? [] : [warning];
    });
}

describe("panto acp: context warnings (issue 34)", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  it("sends a usage_update with _meta panto/contextWarning once per level, and again after /compact took the context below it", async () => {
    const { server, project, env } = await acps.project();
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(
      join(project, ".panto", "config.json"),
      JSON.stringify({ models: { [MODEL]: { context_window: 36_000 } }, keep_verbatim_tokens: 0 }),
    );
    const acp = acps.start(["-m", MODEL], { cwd: project, env });
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const prompt = async (text: string) => {
      const { stopReason } = await acp.agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text }],
      });
      expect(stopReason).toBe("end_turn");
    };

    // No usage given: the fake server reports its own count of each request (body characters / 4).
    server.enqueue({ type: "text", text: "One." });
    await prompt(BIG);
    await waitFor(() => warningsIn(acp.updates(sessionId)).length === 1);
    const [first] = warningsIn(acp.updates(sessionId)) as Array<{ level: number; used: number }>;
    expect(first).toMatchObject({ level: 0.7, size: 36_000 });
    expect(first?.used).toBeGreaterThanOrEqual(0.7 * 36_000);
    expect(first?.used).toBeLessThan(0.85 * 36_000);
    const warned = acp
      .updates(sessionId)
      .find(
        (update): update is UsageUpdate =>
          update.sessionUpdate === "usage_update" && update._meta?.["panto/contextWarning"] !== undefined,
      );
    expect(warned).toMatchObject({ used: first?.used, size: 36_000 });

    server.enqueue({ type: "text", text: "Two." });
    await prompt("two");
    server.enqueue({ type: "text", text: "Summary." });
    await prompt("/compact");
    server.enqueue({ type: "text", text: "Three." });
    await prompt(BIG);
    await waitFor(() => warningsIn(acp.updates(sessionId)).length === 2).catch(() =>
      console.log(
        JSON.stringify(
          acp.updates(sessionId).filter((u) => u.sessionUpdate !== "agent_message_chunk" || true),
          null,
          1,
        ),
      ),
    );
    expect(warningsIn(acp.updates(sessionId))).toMatchObject([{ level: 0.7 }, { level: 0.7 }]);
    expect(acp.stderr).toMatch(/context past 70% of the window/);
  });
});
