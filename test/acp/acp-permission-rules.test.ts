import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";

const MODEL = "anthropic/claude-sonnet-4-5";

describe("panto acp with permission rules", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  it("sends no permission request for a call an allow rule covers, and fails a denied one naming the rule", async () => {
    const { server, project, env } = await acps.project({
      env: (home) => ({ PANTO_MANAGED_SETTINGS: join(home, "no-managed.json") }),
    });
    await mkdir(join(project, ".panto"), { recursive: true });
    const config = join(project, ".panto", "config.json");
    await writeFile(
      config,
      JSON.stringify({ permissions: { allow: ["Edit(notes.txt)"], deny: ["Edit(locked.txt)"] } }),
    );
    await writeFile(join(project, "notes.txt"), "one\n");
    await writeFile(join(project, "locked.txt"), "keep\n");
    // No scripted answers: a permission request would be answered with an error and show in the log.
    const acp = acps.start(["-m", MODEL], { cwd: project, env }, {});
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          { id: "toolu_a", name: "write", arguments: { path: "notes.txt", content: "allowed\n" } },
          { id: "toolu_d", name: "write", arguments: { path: "locked.txt", content: "changed\n" } },
        ],
      },
      { type: "text", text: "done" },
    );
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write both" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(acp.log.filter((entry) => entry.kind === "permission")).toEqual([]);
    expect(await readFile(join(project, "notes.txt"), "utf8")).toBe("allowed\n");
    expect(await readFile(join(project, "locked.txt"), "utf8")).toBe("keep\n");
    const results = JSON.stringify(server.requests.at(-1)?.body);
    expect(results).toContain(
      `Denied by the permission rule Edit(locked.txt) (permissions.deny[0] in ${config})`,
    );
  });

  it("answers allow_always with the suggested rule for the session: a later call it covers sends no permission request, one it does not cover does, and no file is written", async () => {
    const { server, home, project, env } = await acps.project({
      env: (home) => ({ PANTO_MANAGED_SETTINGS: join(home, "no-managed.json") }),
    });
    const acp = acps.start(
      ["-m", MODEL],
      { cwd: project, env },
      { permissions: ["allow_always", "reject_once"] },
    );
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_1", name: "write", arguments: { path: "src/a.txt", content: "a\n" } }],
      },
      {
        type: "tool-calls",
        calls: [{ id: "toolu_2", name: "write", arguments: { path: "src/deep/b.txt", content: "b\n" } }],
      },
      { type: "text", text: "both written" },
    );
    await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write in src" }],
    });
    const asked = acp.log.flatMap((entry) => (entry.kind === "permission" ? [entry.request] : []));
    expect(asked).toHaveLength(1);
    expect(asked[0]?.toolCall.toolCallId).toBe("toolu_1");
    expect(asked[0]?.options.find((option) => option.kind === "allow_always")?.name).toBe(
      "Always allow Edit(./src/**) in this session",
    );
    expect(await readFile(join(project, "src", "deep", "b.txt"), "utf8")).toBe("b\n");
    expect(acp.stderr).toContain("allowed from now on: Edit(./src/**) (this session)");

    // Outside what the rule covers: asked again (and refused, so nothing is written).
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_3", name: "write", arguments: { path: "docs/c.txt", content: "c\n" } }],
      },
      { type: "text", text: "refused" },
    );
    await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write in docs" }],
    });
    const later = acp.log.flatMap((entry) => (entry.kind === "permission" ? [entry.request] : []));
    expect(later.map((request) => request.toolCall.toolCallId)).toEqual(["toolu_1", "toolu_3"]);
    expect(existsSync(join(project, "docs", "c.txt"))).toBe(false);
    // For the session only: no config file was written.
    expect(existsSync(join(project, ".panto", "config.local.json"))).toBe(false);
    expect(existsSync(join(home, "config.json"))).toBe(false);
  });
});
