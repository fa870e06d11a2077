import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { cliEnv, tempProject } from "../e2e/run-cli.js";
import { closeAfterEach } from "../support/close-after-each.js";
import { AcpProcess } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

describe("panto acp with permission rules", { timeout: 60_000 }, () => {
  const closeAfter = closeAfterEach();
  const processes: AcpProcess[] = [];
  afterEach(() => {
    for (const process of processes.splice(0)) process.kill();
  });

  it("sends no permission request for a call an allow rule covers, and fails a denied one naming the rule", async () => {
    const server = closeAfter(await startFakeAnthropicServer());
    const { home, project } = await tempProject();
    await mkdir(join(project, ".panto"), { recursive: true });
    const config = join(project, ".panto", "config.json");
    await writeFile(
      config,
      JSON.stringify({ permissions: { allow: ["Edit(notes.txt)"], deny: ["Edit(locked.txt)"] } }),
    );
    await writeFile(join(project, "notes.txt"), "one\n");
    await writeFile(join(project, "locked.txt"), "keep\n");
    const env = cliEnv(home, {
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: server.url,
      PANTO_MANAGED_SETTINGS: join(home, "no-managed.json"),
    });
    // No scripted answers: a permission request would be answered with an error and show in the log.
    const acp = new AcpProcess(["-m", MODEL], { cwd: project, env }, {});
    processes.push(acp);
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
});
