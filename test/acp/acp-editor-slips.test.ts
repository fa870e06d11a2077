import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RequestError, type SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { cliEnv } from "../e2e/run-cli.js";
import { acpProjects } from "../support/acp-project.js";
import type { ClientScript } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

/** The text of the agent's message chunks as a client that joins consecutive messages shows it. */
function joinedAgentText(updates: readonly SessionUpdate[]): string {
  return updates
    .flatMap((update) =>
      update.sessionUpdate === "agent_message_chunk" && update.content.type === "text"
        ? [update.content.text]
        : [],
    )
    .join("");
}

describe("panto acp: the editor slips of issue 42 (SDK client over stdio)", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  async function start(
    options: { args?: string[]; env?: Record<string, string>; script?: ClientScript } = {},
  ) {
    const { server, home, project, env } = await acps.project({ env: () => options.env ?? {} });
    const acp = acps.start(options.args ?? ["-m", MODEL], { cwd: project, env }, options.script);
    return { server, home, project, env, acp };
  }

  it("accepts session/new sent right behind initialize, before its reply arrives", async () => {
    const { acp, project } = await start();
    const [init, created] = await Promise.all([
      acp.initialize(),
      acp.agent.request("session/new", { cwd: project, mcpServers: [] }),
    ]);
    expect(init.protocolVersion).toBe(1);
    expect(created.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("still refuses a session request sent with no initialize at all", async () => {
    const { acp, project } = await start();
    await expect(acp.agent.request("session/new", { cwd: project, mcpServers: [] })).rejects.toMatchObject({
      code: -32600,
    });
  });

  it("answers session/new with no model configured as auth required, saying how to configure one", async () => {
    const { acp, project, home } = await start({ args: [] });
    const bare = acps.start([], { cwd: project, env: cliEnv(home) });
    acp.kill();
    await bare.initialize();
    const error = await bare.agent.request("session/new", { cwd: project, mcpServers: [] }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: -32000, data: { code: "config" } });
    expect((error as RequestError).message).toContain("no model configured");
    expect((error as RequestError).message).toContain("ANTHROPIC_API_KEY");
  });

  it("on SIGTERM with stdin open, closes its sessions (no lock left, no sandbox folder) and exits 143", async () => {
    const privateTmp = await mkdtemp(join(tmpdir(), "panto-acp-term-"));
    const { acp, project, server, home } = await start({ env: { TMPDIR: privateTmp } });
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue({ type: "text", text: "Hello.", usage: { input: 100, output: 5 } });
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] });
    const sessionsDir = join(home, "sessions");
    const [folder] = await readdir(sessionsDir);
    const files = await readdir(join(sessionsDir, folder ?? ""));
    // The session's lock is held while it is open.
    expect(files.some((name) => name.endsWith(".jsonl.lock"))).toBe(true);
    acp.child.kill("SIGTERM");
    expect(await acp.exited).toBe(143);
    expect((await readdir(join(sessionsDir, folder ?? ""))).filter((name) => name.endsWith(".lock"))).toEqual(
      [],
    );
    expect((await readdir(privateTmp)).filter((name) => name.startsWith("panto-sandbox-"))).toEqual([]);
    expect(dirname(privateTmp)).toBe(tmpdir());
  });

  it("gives no 'has no recorded result' warning after an approved write", async () => {
    const { acp, project, server } = await start({ script: { permissions: ["allow_once"] } });
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    await writeFile(join(project, "notes.txt"), "one\n");
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_w1", name: "write", arguments: { path: "notes.txt", content: "two\n" } }],
        usage: { input: 100, output: 10 },
      },
      { type: "text", text: "written", usage: { input: 150, output: 5 } },
    );
    const { stopReason } = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write it" }],
    });
    expect(stopReason).toBe("end_turn");
    expect(acp.log.some((entry) => entry.kind === "permission")).toBe(true);
    expect(acp.stderr).not.toContain("no recorded result");
  });

  it("on session/load, sets a replayed compaction off from the answer before it", async () => {
    const { acp, project, server, env } = await start();
    // Keep nothing verbatim, so /compact summarises both turns.
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 0 }));
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const prompt = (text: string) =>
      acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });
    server.enqueue({ type: "text", text: "First answer." }, { type: "text", text: "Second answer." });
    await prompt("one");
    await prompt("two");
    server.enqueue({ type: "text", text: "SUMMARY of the two questions." });
    await prompt("/compact");
    expect(await acp.end()).toBe(0);

    const again = acps.start(["-m", MODEL], { cwd: project, env });
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    const shown = joinedAgentText(again.updates(sessionId));
    expect(shown).toContain("Second answer.\n\nCompacted");
    expect(shown).toMatch(/SUMMARY of the two questions\.[\s\S]*\n\n$/);
  });
});
