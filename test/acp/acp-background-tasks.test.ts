import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";
import { waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

function updatesOf(updates: readonly SessionUpdate[], id: string): ToolUpdate[] {
  return updates.filter(
    (update): update is ToolUpdate =>
      (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update") &&
      update.toolCallId === id,
  );
}

function texts(update: ToolUpdate | undefined): string {
  return (update?.content ?? [])
    .map((item) => (item.type === "content" && item.content.type === "text" ? item.content.text : ""))
    .join("\n");
}

describe("panto acp: background commands", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  it("keeps the bash call that started a task in_progress after its result, until the task ends", async () => {
    const { server, project, env } = await acps.project();
    const acp = acps.start(
      ["-m", MODEL, "--sandbox", "full"],
      { cwd: project, env },
      { permissions: ["allow_once"] },
    );
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_bg",
            name: "bash",
            arguments: { command: "sleep 1.5; echo finished; exit 4", run_in_background: true },
          },
        ],
      },
      { type: "text", text: "started it" },
    );
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "start it" }],
    });
    expect(response.stopReason).toBe("end_turn");
    const during = updatesOf(acp.updates(sessionId), "toolu_bg");
    const result = during.find((update) => texts(update).includes("Started background task bg1"));
    expect(result).toMatchObject({ status: "in_progress" });
    expect(during.some((update) => update.status === "completed" || update.status === "failed")).toBe(false);
    await waitFor(() =>
      updatesOf(acp.updates(sessionId), "toolu_bg").some((update) => update.status === "failed"),
    );
    const ended = updatesOf(acp.updates(sessionId), "toolu_bg").at(-1);
    expect(ended).toMatchObject({ status: "failed" });
    expect(texts(ended)).toContain("background task bg1 ended: exit code 4, 9 bytes of output");
  });
});
