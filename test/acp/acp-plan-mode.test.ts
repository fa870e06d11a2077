import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";
import { waitFor } from "./acp-harness.js";

// Plan mode over ACP (issue 38 item 5): the editor's mode menu offers it, a write in it is
// refused without a question, and leaving it with /plan off (typed in the editor) returns to the
// mode before it, which the client sees as current_mode_update.

const MODEL = "anthropic/claude-sonnet-4-5";

describe("panto acp: plan mode", { timeout: 90_000 }, () => {
  const acps = acpProjects();

  it("offers plan as a mode, refuses a write in it, and /plan off returns to the mode before it", async () => {
    const { server, project, env } = await acps.project();
    const acp = acps.start(["-m", MODEL], { cwd: project, env });
    await acp.initialize();
    const created = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const { sessionId } = created;
    expect(created.modes?.availableModes.map((mode) => mode.id)).toEqual([
      "plan",
      "ask",
      "accept-edits",
      "allow-all",
    ]);
    await acp.agent.request("session/set_mode", { sessionId, modeId: "accept-edits" });
    await acp.agent.request("session/set_mode", { sessionId, modeId: "plan" });
    const modeUpdates = () =>
      acp
        .updates(sessionId)
        .flatMap((update) => (update.sessionUpdate === "current_mode_update" ? [update.currentModeId] : []));
    await waitFor(() => modeUpdates().length === 2);
    expect(modeUpdates()).toEqual(["accept-edits", "plan"]);

    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_p1", name: "write", arguments: { path: "p.txt", content: "p" } }],
      },
      { type: "text", text: "PLAN: write p.txt" },
    );
    const planned = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write p" }],
    });
    expect(planned.stopReason).toBe("end_turn");
    expect(existsSync(join(project, "p.txt"))).toBe(false);
    expect(acp.log.some((entry) => entry.kind === "permission")).toBe(false);
    const failed = acp
      .updates(sessionId)
      .find((update) => update.sessionUpdate === "tool_call_update" && update.status === "failed");
    expect(JSON.stringify(failed)).toContain("plan mode");
    const system = JSON.stringify((server.requests[0]?.body as { system?: unknown } | undefined)?.system);
    expect(system).toContain("Plan mode is on");

    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "/plan off" }] });
    await waitFor(() => modeUpdates().length === 3);
    expect(modeUpdates().at(-1)).toBe("accept-edits");
    const options = acp
      .updates(sessionId)
      .filter((update) => update.sessionUpdate === "config_option_update")
      .at(-1);
    expect(JSON.stringify(options)).toContain('"currentValue":"accept-edits"');
  });
});
