import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeReply, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { runCli } from "../e2e/run-cli.js";
import { acpProjects } from "../support/acp-project.js";
import { type AcpProcess, waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const SUMMARY = "SUMMARY-OF-EARLIER-WORK";

function responder(request: RecordedRequest): FakeReply {
  const text = JSON.stringify(request.body);
  if (text.includes("<transcript>")) return { type: "text", text: SUMMARY };
  const asked = /ask (\w+)/.exec(text.slice(text.lastIndexOf("ask ")))?.[1] ?? "?";
  return { type: "text", text: `answer ${asked}` };
}

describe("panto acp: sessions are panto's sessions", { timeout: 90_000 }, () => {
  const acps = acpProjects();

  async function setup() {
    const { server, home, project, env } = await acps.project({ server: { responder } });
    await mkdir(join(project, ".panto"), { recursive: true });
    await writeFile(join(project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 0 }));
    const open = async (entities = true) => {
      const acp = acps.start(["-m", MODEL], { cwd: project, env });
      await acp.initialize(entities ? { session: { compaction: {} } } : {});
      return acp;
    };
    return { server, home, project, env, open };
  }

  const say = (acp: AcpProcess, sessionId: string, text: string) =>
    acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });

  it("loads a session after a restart: history, tool calls and the compaction in order, before the response", async () => {
    const { server, project, open } = await setup();
    const first = await open();
    const { sessionId } = await first.agent.request("session/new", { cwd: project, mcpServers: [] });
    await say(first, sessionId, "ask one");
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_l1", name: "ls", arguments: {} }] },
      { type: "text", text: "listed" },
    );
    await say(first, sessionId, "list files");
    await say(first, sessionId, "/compact");
    await say(first, sessionId, "ask three");
    expect(await first.end()).toBe(0);

    const second = await open();
    const loaded = await second.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    expect(loaded.modes?.currentModeId).toBe("ask");
    const replay = second.updates(sessionId);
    const summary = replay.map((update) => {
      if (update.sessionUpdate === "user_message_chunk" || update.sessionUpdate === "agent_message_chunk")
        return `${update.sessionUpdate}:${update.content.type === "text" ? update.content.text : ""}`;
      if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update")
        return `${update.sessionUpdate}:${update.toolCallId}:${update.status}`;
      if (update.sessionUpdate === "compaction_update") return `compaction:${update.status}`;
      return update.sessionUpdate;
    });
    expect(summary).toEqual([
      "user_message_chunk:ask one",
      "agent_message_chunk:answer one",
      "user_message_chunk:list files",
      "tool_call:toolu_l1:pending",
      "tool_call_update:toolu_l1:completed",
      "agent_message_chunk:listed",
      "compaction:completed",
      "user_message_chunk:ask three",
      "agent_message_chunk:answer three",
    ]);
    // The replay came before the response; the commands after it.
    const lines = second.messages();
    const response = lines.findIndex(
      (line) => "result" in line && (line.result as { modes?: unknown }).modes !== undefined,
    );
    const lastReplay = lines.findLastIndex(
      (line) =>
        (line.params as { update?: { sessionUpdate?: string } })?.update?.sessionUpdate ===
        "agent_message_chunk",
    );
    expect(lastReplay).toBeLessThan(response);
    await waitFor(() =>
      second.updates(sessionId).some((update) => update.sessionUpdate === "available_commands_update"),
    );
    // The loaded session goes on: the model sees the summary and the turn after it.
    await say(second, sessionId, "ask four");
    const body = JSON.stringify(server.requests.at(-1)?.body);
    expect(body).toContain(SUMMARY);
    expect(body).toContain("ask three");
    expect(body).not.toContain("ask one");
  });

  it("resumes without replaying; a session made in ACP resumes with panto -r and the other way round", async () => {
    const { project, env, open } = await setup();
    const first = await open();
    const { sessionId } = await first.agent.request("session/new", { cwd: project, mcpServers: [] });
    await say(first, sessionId, "ask alpha");
    await first.end();

    const terminal = await runCli(["-r", sessionId.slice(0, 8), "-p", "ask beta"], { cwd: project, env });
    expect(terminal.code, terminal.stderr).toBe(0);
    expect(terminal.stdout).toContain("answer beta");

    const second = await open();
    await second.agent.request("session/resume", { sessionId, cwd: project, mcpServers: [] });
    await waitFor(() => second.updates(sessionId).length > 0);
    expect(second.updates(sessionId).some((update) => update.sessionUpdate.endsWith("message_chunk"))).toBe(
      false,
    );
    await say(second, sessionId, "ask gamma");
    await second.end();

    const json = await runCli(["-r", sessionId, "--json", "-p", "ask delta"], { cwd: project, env });
    expect(json.code, json.stderr).toBe(0);
    const { sessionLines } = await import("../e2e/run-cli.js");
    const started = JSON.parse(json.stdout.split("\n")[0] ?? "{}") as { session_path: string };
    const prompts = (await sessionLines(started.session_path)).flatMap((line) => {
      const message = line.message as { role?: string; content?: Array<{ text?: string }> } | undefined;
      return line.type === "message" && message?.role === "user" ? [message.content?.[0]?.text] : [];
    });
    expect(prompts).toEqual(["ask alpha", "ask beta", "ask gamma", "ask delta"]);
  });

  it("lists this cwd's sessions newest first with titles and updatedAt, in pages", async () => {
    const { project, home, open } = await setup();
    const { sessionDirectory } = await import("../../src/session/index.js");
    const { findProjectRoot } = await import("../../src/config/index.js");
    const directory = sessionDirectory(home, findProjectRoot(project, { pantoHome: home }));
    await mkdir(directory, { recursive: true });
    for (let index = 0; index < 23; index += 1) {
      const id = `0000${String(index).padStart(4, "0")}-aaaa-4bbb-8ccc-dddddddddddd`;
      const created = new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString();
      const header = { type: "session", version: 1, id, created, cwd: project };
      const message = {
        type: "message",
        id: `m${index}`,
        ts: created,
        message: { role: "user", content: [{ type: "text", text: `prompt number ${index}` }] },
      };
      const file = join(directory, `2026-01-01T00-${String(index).padStart(2, "0")}-00-000Z_${id}.jsonl`);
      await writeFile(file, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
      const { utimes } = await import("node:fs/promises");
      await utimes(file, new Date(created), new Date(created));
    }
    const acp = await open();
    const page1 = await acp.agent.request("session/list", { cwd: project });
    expect(page1.sessions).toHaveLength(20);
    expect(page1.sessions[0]).toMatchObject({
      cwd: project,
      title: "prompt number 22",
      updatedAt: "2026-01-01T00:22:00.000Z",
    });
    expect(page1.nextCursor).toEqual(expect.any(String));
    const page2 = await acp.agent.request("session/list", { cwd: project, cursor: page1.nextCursor ?? null });
    expect(page2.sessions.map((session) => session.title)).toEqual([
      "prompt number 2",
      "prompt number 1",
      "prompt number 0",
    ]);
    expect(page2.nextCursor ?? undefined).toBeUndefined();
    const elsewhere = await acp.agent.request("session/list", { cwd: join(project, "sub") });
    expect(elsewhere.sessions).toEqual([]);
  });

  it("switches modes and models through set_mode and set_config_option, returning the full option list", async () => {
    const { server, project, open } = await setup();
    const acp = await open();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    const changed = await acp.agent.request("session/set_config_option", {
      sessionId,
      configId: "mode",
      value: "accept-edits",
    });
    expect(changed.configOptions.map((option) => [option.id, option.currentValue])).toEqual([
      ["mode", "accept-edits"],
      ["model", MODEL],
    ]);
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_m1", name: "write", arguments: { path: "m.txt", content: "m" } }],
      },
      { type: "text", text: "written" },
    );
    await say(acp, sessionId, "write m");
    expect(acp.log.some((entry) => entry.kind === "permission")).toBe(false);
    await acp.agent.request("session/set_mode", { sessionId, modeId: "ask" });
    await waitFor(() =>
      acp.updates(sessionId).some((update) => update.sessionUpdate === "current_mode_update"),
    );
    const other = "anthropic/claude-haiku-4-5";
    const switched = await acp.agent.request("session/set_config_option", {
      sessionId,
      configId: "model",
      value: other,
    });
    expect(switched.configOptions.find((option) => option.id === "model")?.currentValue).toBe(other);
    await say(acp, sessionId, "ask after");
    expect((server.requests.at(-1)?.body as { model?: string } | undefined)?.model).toBe("claude-haiku-4-5");
    await expect(
      acp.agent.request("session/set_config_option", { sessionId, configId: "mode", value: "reckless" }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("holds two sessions in one process, each with its own history, and closes one", async () => {
    const { server, project, open } = await setup();
    const acp = await open();
    const a = (await acp.agent.request("session/new", { cwd: project, mcpServers: [] })).sessionId;
    const b = (await acp.agent.request("session/new", { cwd: project, mcpServers: [] })).sessionId;
    expect(a).not.toBe(b);
    await say(acp, a, "ask apple");
    await say(acp, b, "ask banana");
    await say(acp, a, "ask cherry");
    const body = JSON.stringify(server.requests.at(-1)?.body);
    expect(body).toContain("ask apple");
    expect(body).not.toContain("ask banana");
    await acp.agent.request("session/close", { sessionId: b });
    await expect(say(acp, b, "ask again")).rejects.toMatchObject({ code: -32002 });
    expect((await say(acp, a, "ask date")).stopReason).toBe("end_turn");
  });
});
