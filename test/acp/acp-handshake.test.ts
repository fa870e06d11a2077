import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, tempProject } from "../e2e/run-cli.js";
import { acpProjects } from "../support/acp-project.js";
import { type ClientScript, waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

describe("panto acp: handshake and a text turn", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  async function start(script: ClientScript = {}) {
    const { server, home, project, env } = await acps.project();
    const acp = acps.start(["-m", MODEL], { cwd: project, env }, script);
    return { server, project, home, env, acp };
  }

  it("answers initialize with protocol 1, agentInfo and only what it supports; other methods are method-not-found", async () => {
    const { acp } = await start();
    const init = await acp.initialize();
    expect(init.protocolVersion).toBe(1);
    expect(init.agentInfo).toMatchObject({ name: "panto" });
    expect(init.agentCapabilities).toEqual({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: true },
      sessionCapabilities: { list: {}, resume: {}, close: {} },
    });
    await expect(acp.agent.request("session/delete", { sessionId: "x" })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(acp.agent.request("_panto/nothing", {})).rejects.toMatchObject({ code: -32601 });
    expect(await acp.end()).toBe(0);
    // stdout carried JSON-RPC alone: every line one message.
    for (const message of acp.messages()) expect(message.jsonrpc).toBe("2.0");
  });

  it("advertises images only when -m names a model that accepts them", async () => {
    const { home, project } = await tempProject();
    const acp = acps.start(["-m", "ollama/qwen2.5-coder:7b"], { cwd: project, env: cliEnv(home) }, {});
    const init = await acp.initialize();
    expect(init.agentCapabilities?.promptCapabilities).toEqual({ image: false, embeddedContext: true });
    expect(await acp.end()).toBe(0);
  });

  it("rejects a relative cwd, or one that is no folder, with invalid params naming it", async () => {
    const { acp, project } = await start();
    await acp.initialize();
    await expect(
      acp.agent.request("session/new", { cwd: "relative/dir", mcpServers: [] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("relative/dir"),
    });
    const missing = join(project, "no-such-folder");
    await expect(acp.agent.request("session/new", { cwd: missing, mcpServers: [] })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(`cwd ${missing} is not a folder`),
    });
  });

  it("answers not found, naming the session, for a session to load or resume that the project lacks, or one not open", async () => {
    const { acp, project } = await start();
    await acp.initialize();
    for (const method of ["session/load", "session/resume"] as const)
      await expect(
        acp.agent.request(method, { sessionId: "0badc0de", cwd: project, mcpServers: [] }),
      ).rejects.toMatchObject({
        code: -32002,
        message: expect.stringContaining('no session id or file name starts with "0badc0de"'),
        data: { sessionId: "0badc0de" },
      });
    await expect(
      acp.agent.request("session/prompt", { sessionId: "0badc0de", prompt: [{ type: "text", text: "hi" }] }),
    ).rejects.toMatchObject({ code: -32002, data: { sessionId: "0badc0de" } });
  });

  it("sends no update before the session/new response, then the commands a client can run", async () => {
    const { acp, project } = await start();
    await acp.initialize();
    const created = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    expect(created.sessionId).toMatch(/\S/);
    expect(created.modes?.currentModeId).toBe("ask");
    expect(created.configOptions?.map((option) => option.category)).toEqual(["mode", "model"]);
    await waitFor(() => acp.updates().length > 0);
    const lines = acp.messages();
    const response = lines.findIndex(
      (line) => (line.result as { sessionId?: string })?.sessionId === created.sessionId,
    );
    const firstUpdate = lines.findIndex((line) => line.method === "session/update");
    expect(response).toBeGreaterThanOrEqual(0);
    expect(firstUpdate).toBeGreaterThan(response);
    const commands = acp.updates().find((update) => update.sessionUpdate === "available_commands_update");
    const names =
      commands?.sessionUpdate === "available_commands_update"
        ? commands.availableCommands.map((c) => c.name)
        : [];
    expect(names).toContain("compact");
    expect(names).toContain("pin");
    expect(names).not.toContain("exit");
    expect(names).not.toContain("clear");
    const compact =
      commands?.sessionUpdate === "available_commands_update"
        ? commands.availableCommands.find((c) => c.name === "compact")
        : undefined;
    expect(compact?.description).toMatch(/\S/);
    expect(compact?.input).toEqual({ hint: expect.stringMatching(/\S/) });
  });

  it("streams the answer as agent_message_chunks with one messageId, never echoing the prompt, and ends the turn", async () => {
    const { acp, project, server } = await start();
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue({ type: "text", text: "Hello from panto over ACP, streamed in pieces." });
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "say hello PROMPT-MARKER" }],
    });
    expect(response.stopReason).toBe("end_turn");
    const chunks = acp.updates(sessionId).filter((update) => update.sessionUpdate === "agent_message_chunk");
    const text = chunks.map((chunk) => (chunk.content.type === "text" ? chunk.content.text : "")).join("");
    expect(text).toBe("Hello from panto over ACP, streamed in pieces.");
    expect(new Set(chunks.map((chunk) => chunk.messageId)).size).toBe(1);
    expect(acp.updates().some((update) => update.sessionUpdate === "user_message_chunk")).toBe(false);
    expect(acp.rawLines.join("\n")).not.toContain('PROMPT-MARKER"}]}');
    // The prompt's response comes after every update of the turn.
    const lines = acp.messages();
    const last = lines.findLastIndex(
      (line) =>
        line.method === "session/update" &&
        (line.params as { update: { sessionUpdate: string } }).update.sessionUpdate === "agent_message_chunk",
    );
    const answered = lines.findIndex(
      (line) => (line.result as { stopReason?: string })?.stopReason === "end_turn",
    );
    expect(answered).toBeGreaterThan(last);
    expect(await acp.end()).toBe(0);
  });

  it("writes the turn to a panto session file before it exits on stdin close", async () => {
    const { acp, project, server, home } = await start();
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue({ type: "text", text: "kept" });
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "remember me" }] });
    expect(await acp.end()).toBe(0);
    const { listProjectSessions } = await import("../../src/runtime/project-sessions.js");
    const { listing } = await listProjectSessions(project, { PANTO_HOME: home });
    expect(listing.sessions.map((session) => [session.id, session.firstPrompt])).toEqual([
      [sessionId, "remember me"],
    ]);
  });
});
