import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, it } from "vitest";
import { acpProjects } from "../support/acp-project.js";
import { bashCall, todoCall } from "../support/tool-calls.js";
import { type AcpProcess, waitFor } from "./acp-harness.js";

/**
 * The task list as the protocol's `plan` session update: `panto acp` (the built CLI) driven over
 * stdio by the official SDK's client (which checks every update against the protocol's schema),
 * a scripted model calling the real todo tool and running a real `npm test` against the fake
 * Anthropic server.
 */
const MODEL = "anthropic/claude-sonnet-4-5";

type Plan = Extract<SessionUpdate, { sessionUpdate: "plan" }>;
const plans = (updates: SessionUpdate[]): Plan[] =>
  updates.filter((update): update is Plan => update.sessionUpdate === "plan");

describe("panto acp: the task list as the editor's plan", { timeout: 90_000 }, () => {
  const acps = acpProjects();

  async function setup() {
    const { server, project, env } = await acps.project();
    await writeFile(join(project, "package.json"), JSON.stringify({ scripts: { test: "node check.cjs" } }));
    const tests = (passing: boolean) =>
      writeFile(
        join(project, "check.cjs"),
        passing ? 'console.log("12 tests passed");\n' : 'console.log("FAIL parser");\nprocess.exit(1);\n',
      );
    const open = async () => {
      const acp = acps.start(["-m", MODEL], { cwd: project, env });
      await acp.initialize();
      return acp;
    };
    return { server, project, tests, open };
  }

  const say = (acp: AcpProcess, sessionId: string, text: string) =>
    acp.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] });

  it("sends each accepted list as a plan (cancelled and flagged items under _meta), again when a flag clears, and on load and resume", async () => {
    const { server, project, tests, open } = await setup();
    await tests(false);
    const acp = await open();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue(
      bashCall("toolu_b1", "npm test"),
      todoCall("toolu_t1", [
        { content: "Run the tests", status: "completed", evidence: "npm test" },
        { content: "Fix the parser", status: "in_progress", evidence: "src/parser.ts" },
        { content: "Document the parser", status: "pending" },
        { content: "Rewrite the lexer", status: "cancelled" },
      ]),
      { type: "text", text: "Tests ran." },
    );
    expect((await say(acp, sessionId, "fix the parser")).stopReason).toBe("end_turn");
    // A new session has no list: no plan before the todo call; then exactly one for it.
    const first = plans(acp.updates(sessionId));
    expect(first).toHaveLength(1);
    const flag = "completed, but the latest `npm test` (turn 1) exited 1";
    expect(first[0]).toEqual({
      sessionUpdate: "plan",
      entries: [
        {
          content: "Run the tests",
          priority: "medium",
          status: "completed",
          _meta: { "panto/todo": { evidence: "npm test", flag } },
        },
        {
          content: "Fix the parser",
          priority: "medium",
          status: "in_progress",
          _meta: { "panto/todo": { evidence: "src/parser.ts" } },
        },
        { content: "Document the parser", priority: "medium", status: "pending" },
      ],
      _meta: {
        "panto/todo": {
          cancelled: [{ content: "Rewrite the lexer" }],
          flagged: [{ content: "Run the tests", flag }],
          completed: 1,
          total: 3,
        },
      },
    });
    // The plan is sent as the call is accepted, before the call's own result.
    const order = acp
      .updates(sessionId)
      .map((update) =>
        update.sessionUpdate === "tool_call_update" &&
        update.toolCallId === "toolu_t1" &&
        update.status === "completed"
          ? "todo-result"
          : update.sessionUpdate,
      );
    expect(order.indexOf("plan")).toBeLessThan(order.indexOf("todo-result"));

    // The tests pass now: no todo call, but the flag clears, so the editor is sent the plan again.
    await tests(true);
    server.enqueue(bashCall("toolu_b2", "npm test"), { type: "text", text: "Passing." });
    await say(acp, sessionId, "run them again");
    const second = plans(acp.updates(sessionId));
    expect(second).toHaveLength(2);
    expect(second[1]?.entries[0]).toEqual({
      content: "Run the tests",
      priority: "medium",
      status: "completed",
      _meta: { "panto/todo": { evidence: "npm test" } },
    });
    expect(second[1]?._meta).toEqual({
      "panto/todo": { cancelled: [{ content: "Rewrite the lexer" }], flagged: [], completed: 1, total: 3 },
    });

    // A prompt that changes nothing sends no plan.
    server.enqueue({ type: "text", text: "Nothing to do." });
    await say(acp, sessionId, "anything else?");
    expect(plans(acp.updates(sessionId))).toHaveLength(2);

    // The second change of the list.
    server.enqueue(
      todoCall("toolu_t2", [
        { content: "Run the tests", status: "completed", evidence: "npm test" },
        { content: "Fix the parser", status: "completed" },
        { content: "Document the parser", status: "in_progress" },
      ]),
      { type: "text", text: "Documenting." },
    );
    await say(acp, sessionId, "go on");
    const third = plans(acp.updates(sessionId));
    expect(third).toHaveLength(3);
    expect(third[2]?.entries.map((entry) => `${entry.status}: ${entry.content}`)).toEqual([
      "completed: Run the tests",
      "completed: Fix the parser",
      "in_progress: Document the parser",
    ]);
    expect(third[2]?._meta).toEqual({
      "panto/todo": { cancelled: [], flagged: [], completed: 2, total: 3 },
    });
    expect(await acp.end()).toBe(0);

    // Loaded in a new process: the history replayed, then the list in force as the plan.
    const loader = await open();
    await loader.agent.request("session/load", { sessionId, cwd: project, mcpServers: [] });
    await waitFor(() => plans(loader.updates(sessionId)).length > 0);
    expect(plans(loader.updates(sessionId))).toEqual([third[2]]);
    const loadedOrder = loader.updates(sessionId).map((update) => update.sessionUpdate);
    expect(loadedOrder.indexOf("plan")).toBeGreaterThan(loadedOrder.lastIndexOf("agent_message_chunk"));
    expect(await loader.end()).toBe(0);

    // Resumed (no replay): the plan all the same.
    const resumer = await open();
    await resumer.agent.request("session/resume", { sessionId, cwd: project, mcpServers: [] });
    await waitFor(() => plans(resumer.updates(sessionId)).length > 0);
    expect(plans(resumer.updates(sessionId))).toEqual([third[2]]);
    expect(await resumer.end()).toBe(0);
  });

  it("empties the editor's plan when /clear leaves no list in force", async () => {
    const { server, project, open } = await setup();
    const acp = await open();
    const { sessionId } = await acp.agent.request("session/new", { cwd: project, mcpServers: [] });
    server.enqueue(todoCall("toolu_t1", [{ content: "One thing", status: "in_progress" }]), {
      type: "text",
      text: "On it.",
    });
    await say(acp, sessionId, "do one thing");
    expect(plans(acp.updates(sessionId))).toHaveLength(1);
    await say(acp, sessionId, "/clear");
    const sent = plans(acp.updates(sessionId));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({
      sessionUpdate: "plan",
      entries: [],
      _meta: { "panto/todo": { cancelled: [], flagged: [], completed: 0, total: 0 } },
    });
  });
});
