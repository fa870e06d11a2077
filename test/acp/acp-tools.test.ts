import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";
import { type ClientScript, waitFor } from "./acp-harness.js";

const MODEL = "anthropic/claude-sonnet-4-5";

type ToolUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" | "tool_call_update" }>;

function toolUpdates(updates: readonly SessionUpdate[]): ToolUpdate[] {
  return updates.filter(
    (update): update is ToolUpdate =>
      update.sessionUpdate === "tool_call" || update.sessionUpdate === "tool_call_update",
  );
}

describe("panto acp: tool calls, permissions, files and cancel", { timeout: 60_000 }, () => {
  const acps = acpProjects();

  async function start(script: ClientScript = {}, serverOptions = {}, args: readonly string[] = []) {
    const { server, project, env } = await acps.project({ server: serverOptions });
    const acp = acps.start(["-m", MODEL, ...args], { cwd: project, env }, script);
    await acp.initialize();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    return { server, project, acp, sessionId, env };
  }

  it("asks before an edit with the real diff, announces the call first, and shows the diff in its result", async () => {
    const { server, project, acp, sessionId } = await start({ permissions: ["allow_once"] });
    const file = join(project, "notes.txt");
    await writeFile(file, "one\ntwo\nthree\n");
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_e1",
            name: "edit",
            arguments: { path: "notes.txt", old_string: "two", new_string: "TWO" },
          },
        ],
      },
      { type: "text", text: "edited" },
    );
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "edit it" }],
    });
    expect(response.stopReason).toBe("end_turn");
    expect(await readFile(file, "utf8")).toBe("one\nTWO\nthree\n");
    const calls = toolUpdates(acp.updates(sessionId));
    expect(calls[0]).toMatchObject({
      sessionUpdate: "tool_call",
      toolCallId: "toolu_e1",
      kind: "edit",
      status: "pending",
      rawInput: { path: "notes.txt", old_string: "two", new_string: "TWO" },
    });
    // Every update names the call announced first.
    for (const update of calls) expect(update.toolCallId).toBe("toolu_e1");
    const permission = acp.log.findIndex((entry) => entry.kind === "permission");
    const announced = acp.log.findIndex(
      (entry) => entry.kind === "update" && entry.update.sessionUpdate === "tool_call",
    );
    expect(announced).toBeLessThan(permission);
    const asked = acp.log[permission];
    expect(asked?.kind === "permission" ? asked.request.options.map((option) => option.kind) : []).toEqual([
      "allow_once",
      "allow_always",
      "reject_once",
    ]);
    expect(asked?.kind === "permission" ? asked.request.toolCall.content : []).toEqual([
      { type: "diff", path: file, oldText: "one\ntwo\nthree\n", newText: "one\nTWO\nthree\n" },
    ]);
    const done = calls.at(-1);
    expect(done).toMatchObject({
      sessionUpdate: "tool_call_update",
      status: "completed",
      locations: [{ path: file, line: 2 }],
    });
    expect(done?.content?.[0]).toEqual({
      type: "diff",
      path: file,
      oldText: "one\ntwo\nthree\n",
      newText: "one\nTWO\nthree\n",
    });
  });

  it("remembers allow_always for the session (as the suggested rule: the folder written to) and a rejection fails the call without running it", async () => {
    const { server, project, acp, sessionId } = await start({ permissions: ["allow_always", "reject_once"] });
    await writeFile(join(project, "a.txt"), "first\n");
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_w1", name: "write", arguments: { path: "notes/a.txt", content: "first\n" } }],
      },
      {
        type: "tool-calls",
        calls: [{ id: "toolu_w2", name: "write", arguments: { path: "notes/b.txt", content: "second\n" } }],
      },
      { type: "text", text: "both written" },
    );
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write two" }] });
    expect(acp.log.filter((entry) => entry.kind === "permission")).toHaveLength(1);
    expect(await readFile(join(project, "notes", "b.txt"), "utf8")).toBe("second\n");
    const write = toolUpdates(acp.updates(sessionId)).find((update) => update.sessionUpdate === "tool_call");
    expect(write).toMatchObject({ kind: "edit", toolCallId: "toolu_w1" });

    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_e1",
            name: "edit",
            arguments: { path: "a.txt", old_string: "first", new_string: "x" },
          },
        ],
      },
      { type: "text", text: "rejected" },
    );
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "edit a" }] });
    expect(acp.log.filter((entry) => entry.kind === "permission")).toHaveLength(2);
    expect(await readFile(join(project, "a.txt"), "utf8")).toBe("first\n");
    const edit = toolUpdates(acp.updates(sessionId)).filter((update) => update.toolCallId === "toolu_e1");
    expect(edit.at(-1)?.status).toBe("failed");
  });

  it("runs bash in the sandbox without asking, and asks about each escape with its reason and no allow_always, even in allow-all mode", async () => {
    const { server, project, acp, sessionId } = await start({ permissions: ["allow_once", "reject_once"] });
    await acp.agent.request("session/set_mode", { sessionId, modeId: "allow-all" });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_b1", name: "bash", arguments: { command: "echo inside > in.txt" } }],
      },
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_b2",
            name: "bash",
            arguments: { command: "echo outside > out.txt", unsandboxed_reason: "needs the host's socket" },
          },
        ],
      },
      {
        type: "tool-calls",
        calls: [
          {
            id: "toolu_b3",
            name: "bash",
            arguments: { command: "echo again > again.txt", unsandboxed_reason: "once more" },
          },
        ],
      },
      { type: "text", text: "done" },
    );
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run them" }] });
    expect(await readFile(join(project, "in.txt"), "utf8")).toBe("inside\n");
    expect(await readFile(join(project, "out.txt"), "utf8")).toBe("outside\n");
    await expect(readFile(join(project, "again.txt"), "utf8")).rejects.toThrow();
    const asked = acp.log.flatMap((entry) => (entry.kind === "permission" ? [entry.request] : []));
    expect(asked.map((request) => request.toolCall.toolCallId)).toEqual(["toolu_b2", "toolu_b3"]);
    expect(asked[0]?.toolCall.title).toBe(
      "echo outside > out.txt (outside the sandbox: needs the host's socket)",
    );
    for (const request of asked)
      expect(request.options.map((option) => option.kind)).toEqual(["allow_once", "reject_once"]);
    const third = toolUpdates(acp.updates(sessionId)).filter((update) => update.toolCallId === "toolu_b3");
    expect(third.at(-1)?.status).toBe("failed");
  });

  it("reads and writes through the client's fs when it advertises it (no sandbox), and never touches the disk for them", async () => {
    const buffers = new Map<string, string>();
    const { server, project, acp, sessionId } = await start(
      { files: buffers, permissions: ["allow_once"] },
      {},
      ["--sandbox", "full"],
    );
    const file = join(project, "buffer.ts");
    await writeFile(file, "on disk\n");
    buffers.set(file, "unsaved buffer text\n");
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_r1", name: "read", arguments: { path: "buffer.ts" } }] },
      {
        type: "tool-calls",
        calls: [
          { id: "toolu_w2", name: "write", arguments: { path: "buffer.ts", content: "from the model\n" } },
        ],
      },
      { type: "text", text: "done" },
    );
    await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read then write" }],
    });
    const lastRequest = JSON.stringify(server.requests.at(-1)?.body);
    expect(lastRequest).toContain("unsaved buffer text");
    expect(acp.log.some((entry) => entry.kind === "fs-read" && entry.path === file)).toBe(true);
    expect(
      acp.log.some(
        (entry) => entry.kind === "fs-write" && entry.path === file && entry.content === "from the model\n",
      ),
    ).toBe(true);
    expect(await readFile(file, "utf8")).toBe("on disk\n");
  });

  it("in a sandbox, reads and writes the local files through verified descriptors, not the client's fs (the editor would follow a swapped path)", async () => {
    const buffers = new Map<string, string>();
    const { server, project, acp, sessionId } = await start({ files: buffers, permissions: ["allow_once"] });
    const file = join(project, "buffer.ts");
    await writeFile(file, "on disk\n");
    buffers.set(file, "unsaved buffer text\n");
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_r4", name: "read", arguments: { path: "buffer.ts" } }] },
      {
        type: "tool-calls",
        calls: [
          { id: "toolu_w4", name: "write", arguments: { path: "buffer.ts", content: "from the model\n" } },
        ],
      },
      { type: "text", text: "done" },
    );
    await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "read then write" }],
    });
    const lastRequest = JSON.stringify(server.requests.at(-1)?.body);
    expect(lastRequest).toContain("on disk");
    expect(lastRequest).not.toContain("unsaved buffer text");
    expect(await readFile(file, "utf8")).toBe("from the model\n");
    expect(acp.log.some((entry) => entry.kind === "fs-write")).toBe(false);
  });

  it("uses the local files when the client does not advertise fs", async () => {
    const { server, project, acp, sessionId } = await start({ permissions: ["allow_once"] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_w3", name: "write", arguments: { path: "local.txt", content: "local\n" } }],
      },
      { type: "text", text: "done" },
    );
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(await readFile(join(project, "local.txt"), "utf8")).toBe("local\n");
    expect(acp.log.some((entry) => entry.kind === "fs-read" || entry.kind === "fs-write")).toBe(false);
  });

  it("cancels a slow stream: the prompt answers cancelled within 2 s and the next prompt works", async () => {
    const { server, acp, sessionId } = await start();
    server.enqueue({ type: "hang", afterText: "partial answer" });
    const prompt = acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "slow" }],
    });
    await waitFor(() =>
      acp.updates(sessionId).some((update) => update.sessionUpdate === "agent_message_chunk"),
    );
    const cancelledAt = Date.now();
    await acp.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
    server.enqueue({ type: "text", text: "after the cancel" });
    const next = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "again" }],
    });
    expect(next.stopReason).toBe("end_turn");
  });

  it("cancels during a bash sleep: the child process is gone and the call ends", async () => {
    const { server, acp, sessionId } = await start({ permissions: ["allow_once"] });
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_s1", name: "bash", arguments: { command: "sleep 37.5" } }] },
      { type: "text", text: "never" },
    );
    const prompt = acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "sleep" }],
    });
    await waitFor(() => sleeping().length > 0);
    const cancelledAt = Date.now();
    await acp.agent.notify("session/cancel", { sessionId });
    expect((await prompt).stopReason).toBe("cancelled");
    expect(Date.now() - cancelledAt).toBeLessThan(2000);
    await waitFor(() => sleeping().length === 0, 3000);
    const call = toolUpdates(acp.updates(sessionId)).filter((update) => update.toolCallId === "toolu_s1");
    expect(call.at(-1)?.status).toBe("failed");
  });

  it("asks nothing the sandbox refuses: no permission request and no fs/read_text_file, and each call fails naming the rule", async () => {
    const buffers = new Map<string, string>();
    const { server, project, acp, sessionId } = await start({ files: buffers });
    buffers.set(join(project, ".git", "config"), "[core]\n");
    const refused = [
      // The project is under /tmp, which the sandbox replaces with its private one: /etc is outside.
      { id: "toolu_s1", name: "write", arguments: { path: "/etc/panto-acp-test.txt", content: "x\n" } },
      {
        id: "toolu_s2",
        name: "edit",
        arguments: { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = evil" },
      },
      { id: "toolu_s3", name: "write", arguments: { path: "vendor/lib/.git/config", content: "[core]\n" } },
      { id: "toolu_s4", name: "write", arguments: { path: ".git/commondir", content: "../evil\n" } },
    ];
    server.enqueue({ type: "tool-calls", calls: refused }, { type: "text", text: "done" });
    await acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "write" }] });
    expect(acp.log.filter((entry) => entry.kind !== "update")).toEqual([]);
    const updates = toolUpdates(acp.updates(sessionId));
    for (const call of refused) {
      const last = updates.filter((update) => update.toolCallId === call.id).at(-1);
      expect(last?.status, call.id).toBe("failed");
      expect(JSON.stringify(last?.content), call.id).toContain("refused by the sandbox, rule");
    }
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain("rule outside-writable-roots");
    expect(sent).toContain("rule protected-path");
  });

  it("records a result for every call when the client fails the permission request, and the round goes on", async () => {
    const { server, project, acp, sessionId, env } = await start({ permissions: ["error", "allow_once"] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          { id: "toolu_f1", name: "write", arguments: { path: "first.txt", content: "1\n" } },
          { id: "toolu_f2", name: "write", arguments: { path: "second.txt", content: "2\n" } },
        ],
      },
      { type: "text", text: "done" },
    );
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write two" }],
    });
    expect(response.stopReason).toBe("end_turn");
    await expect(readFile(join(project, "first.txt"), "utf8")).rejects.toThrow();
    expect(await readFile(join(project, "second.txt"), "utf8")).toBe("2\n");
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    // The SDK answers a handler's exception with a JSON-RPC "Internal error".
    expect(sent).toContain("The call failed inside panto: Internal error");
    const code = await acp.end();
    expect(code).toBe(0);
    // Resumed, the session has nothing to repair: both calls have their results on disk.
    const resumed = acps.start(["-m", MODEL], { cwd: project, env }, {});
    await resumed.initialize();
    await resumed.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    await resumed.end();
    expect(resumed.stderr).not.toContain("no recorded result");
  });

  it("counts a permission request answered cancelled as the cancel", async () => {
    const { server, acp, sessionId, project } = await start({ permissions: ["cancel"] });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_x1", name: "write", arguments: { path: "x.txt", content: "x" } }],
      },
      { type: "text", text: "never" },
    );
    const response = await acp.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "write x" }],
    });
    expect(response.stopReason).toBe("cancelled");
    await expect(readFile(join(project, "x.txt"), "utf8")).rejects.toThrow();
  });

  it("refuses a second prompt while a turn runs, leaving the running turn intact", async () => {
    const { server, acp, sessionId } = await start();
    server.enqueue({ type: "hang", afterText: "working" });
    const first = acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "one" }] });
    await waitFor(() =>
      acp.updates(sessionId).some((update) => update.sessionUpdate === "agent_message_chunk"),
    );
    await expect(
      acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "two" }] }),
    ).rejects.toMatchObject({ message: expect.stringContaining("already running") });
    await acp.agent.notify("session/cancel", { sessionId });
    expect((await first).stopReason).toBe("cancelled");
  });
});

/** Processes running the test's `sleep 37.5`. */
function sleeping(): string[] {
  const out = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.startsWith("sleep 37.5"));
}
