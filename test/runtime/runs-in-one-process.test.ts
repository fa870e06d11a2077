import { afterEach, describe, expect, it } from "vitest";
import { info } from "../../src/runtime/command-outcome.js";
import type { ApprovalAnswer } from "../../src/runtime/front-end.js";
import type { RunContext } from "../../src/runtime/run-context.js";
import { type RunEvent, RunEvents } from "../../src/runtime/run-events.js";
import { startRun } from "../../src/runtime/start-run.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox } from "../cli/panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const servers: FakeServer[] = [];
const runs: RunContext[] = [];
afterEach(async () => {
  await Promise.all(runs.splice(0).map((run) => run.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** One run of its own (own fake server, own events) in this process, answering approvals with `answer`. */
async function start(project: { project: string; env: NodeJS.ProcessEnv }, answer: ApprovalAnswer) {
  const server = await startFakeAnthropicServer();
  servers.push(server);
  const events = new RunEvents();
  const seen: RunEvent[] = [];
  events.subscribe((event) => seen.push(event));
  const run = await startRun({
    // No sandbox: bash then asks, and each run's answers are what this test follows.
    options: { model: MODEL, sandbox: "full" },
    io: {
      cwd: project.project,
      env: { ...project.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      version: "0.0.0-test",
    },
    events,
    frontEnd: { askApproval: async () => answer },
  });
  runs.push(run);
  return { run, server, seen };
}

const textsOf = (seen: RunEvent[]): string[] =>
  seen.flatMap((event) =>
    event.type === "assistant-message"
      ? event.message.content.flatMap((block) => (block.type === "text" ? [block.text] : []))
      : [],
  );

describe("several runs in one process (as an editor protocol holds them)", { timeout: 30_000 }, () => {
  it("keeps each run's events, approvals, session and commands to itself, also while both run at once", async () => {
    const box = await makeSandbox();
    const a = await start(box, "always");
    const b = await start(box, "deny");
    const bash = (id: string) => ({
      type: "tool-calls" as const,
      calls: [{ id, name: "bash", arguments: { command: `echo ${id}` } }],
    });
    a.server.enqueue(bash("toolu_a"), { type: "text", text: "answer A" });
    b.server.enqueue(bash("toolu_b"), { type: "text", text: "answer B" });

    const [resultA, resultB] = await Promise.all([a.run.agent.prompt("go A"), b.run.agent.prompt("go B")]);
    expect(resultA).toMatchObject({ ok: true, text: "answer A" });
    expect(resultB).toMatchObject({ ok: true, text: "answer B" });
    expect(textsOf(a.seen)).toEqual(["answer A"]);
    expect(textsOf(b.seen)).toEqual(["answer B"]);
    const results = (seen: RunEvent[]) =>
      seen.flatMap((event) =>
        event.type === "tool-result" ? [[event.result.toolCallId, event.result.isError]] : [],
      );
    expect(results(a.seen)).toEqual([["toolu_a", false]]);
    expect(results(b.seen)).toEqual([["toolu_b", true]]);
    expect(a.run.approvals.granted()).toEqual(["bash"]);
    expect(b.run.approvals.granted()).toEqual([]);
    expect(a.run.session.path).not.toBe(b.run.session.path);

    const pinned = await a.run.runCommand({ name: "pin", args: "only in A" });
    expect(pinned).toEqual({ type: "pinned", number: 1, text: "only in A" });
    expect(a.seen.at(-1)).toEqual({ type: "command", name: "pin", args: "only in A", outcome: pinned });
    expect(b.seen.some((event) => event.type === "command" || event.type === "pinned")).toBe(false);
    expect(b.run.session.pins()).toEqual([]);
  });

  it("runs a command added to one run's registry, reports it on that run's stream, and nowhere else", async () => {
    const box = await makeSandbox();
    const a = await start(box, "deny");
    const b = await start(box, "deny");
    a.run.commands.add({
      name: "hello",
      aliases: [],
      args: "[name]",
      summary: "greets",
      execute: async (_run, args) => info("hello", `hello ${args}`),
    });
    expect(await a.run.runCommand({ name: "hello", args: "you" })).toEqual(info("hello", "hello you"));
    expect(a.seen.at(-1)).toMatchObject({ type: "command", name: "hello", outcome: { text: "hello you" } });
    const help = await a.run.runCommand({ name: "help", args: "" });
    expect(help.type === "info" && help.text).toContain("/hello [name]");
    expect(await b.run.runCommand({ name: "hello", args: "" })).toEqual({
      type: "failed",
      status: "usage",
      code: "usage",
      message: "unknown command /hello; did you mean /help? /help lists the commands",
    });
  });
});
