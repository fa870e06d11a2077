import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply } from "../../src/simulator/index.js";
import { localModelProjects, OVERFLOW } from "../support/local-model-project.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

// Every line the built CLI writes in --json and stream-json mode, over runs that between them make
// most kinds of event, must validate against the schema shipped as panto/schema/events.json (with
// a JSON Schema validator, not the zod schemas it was made from).

type Event = { type: string } & Record<string, unknown>;

const ajv = new Ajv2020.default({ allErrors: true, allowUnionTypes: true });
const validate = ajv.compile(
  JSON.parse(readFileSync(new URL("../../schema/events.json", import.meta.url), "utf8")),
);

const projects = localModelProjects();

function invalid(events: readonly Event[]): unknown[] {
  return events.flatMap((event) => (validate(event) ? [] : [{ event, errors: validate.errors }]));
}

const round = (id: string, name: string, args: Record<string, unknown>, input: number): FakeReply => ({
  type: "tool-calls",
  calls: [{ id, name, arguments: args }],
  usage: { input, output: 10 },
});

/** Waits until `stdout()` holds an event `match` accepts. */
async function waitFor(stdout: () => string, match: (event: Event) => boolean): Promise<Event> {
  for (const started = Date.now(); ; ) {
    if (Date.now() - started > 30_000) throw new Error(`the event did not come; stdout so far:\n${stdout()}`);
    const complete = stdout().slice(0, stdout().lastIndexOf("\n") + 1);
    const found = jsonLines(complete).find(match);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the events of real runs against the shipped schema (built CLI)", { timeout: 120_000 }, () => {
  it("validates --json runs: tools, todo, checkpoints, context warnings, an overflow's compaction, commands, errors", async () => {
    const { box, server } = await projects.open({ keep_verbatim_tokens: 10 });
    const run = async (args: string[]): Promise<Event[]> =>
      jsonLines((await runPanto(["--json", ...args], { cwd: box.project, env: box.env })).stdout);
    const events: Event[] = [];

    server.enqueue({ type: "text", text: "Hello.", usage: { input: 1000, output: 10 } });
    events.push(...(await run(["-p", "start"])));
    server.enqueue(
      round("call_todo", "todo", { items: [{ content: "write notes", status: "in_progress" }] }, 1000),
      round("call_write", "write", { path: "notes.txt", content: "notes\n" }, 7200),
      round("call_ls", "ls", { path: "." }, 8700),
      OVERFLOW,
      { type: "text", text: "Summary of the start.", usage: { input: 500, output: 20 } },
      { type: "text", text: "Done.", usage: { input: 3000, output: 10 } },
    );
    events.push(...(await run(["-c", "--allow-tools", "-p", "take notes"])));
    events.push(...(await run(["-c", "-p", "/pin the notes live in notes.txt"])));
    events.push(...(await run(["-c", "-p", "/compact --preview"])));
    server.enqueue({ type: "error", status: 401, body: JSON.stringify({ error: { message: "bad key" } }) });
    events.push(...(await run(["-c", "-p", "once more"])));
    events.push(...(await run(["-p", "/no-such-command"])));

    expect(invalid(events)).toEqual([]);
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set([
        "session_started",
        "tool_call",
        "tool_result",
        "assistant_message",
        "todo_updated",
        "checkpoint",
        "context_warning",
        "compaction_started",
        "compaction",
        "overflow_retry",
        "pinned",
        "compaction_preview",
        "error",
        "done",
        ...events.filter((event) => event.type === "warning" || event.type === "notice").map((e) => e.type),
      ]),
    );
  });

  it("validates stream-json's own events: permission_request, control_response, result, and mode_changed", async () => {
    const box = await makeSandbox();
    // Each request answered by what it carries: a bash call, its answer, and a turn that hangs.
    const server = await startFakeAnthropicServer({
      responder: (request) => {
        const messages = JSON.stringify((request.body as { messages: unknown[] }).messages.at(-1));
        if (messages.includes("think hard")) return { type: "hang", afterText: "Thinking" };
        if (messages.includes("tool_result")) return { type: "text", text: "It said hi." };
        return {
          type: "tool-calls",
          calls: [{ id: "toolu_1", name: "bash", arguments: { command: "echo hi" } }],
        };
      },
    });
    projects.closeAfter(server);
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const user = (content: string): string =>
      `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;
    let child: ChildProcess | undefined;
    let stdout: () => string = () => "";
    const finished = runPanto(
      ["--input-format", "stream-json", "--json", "-m", "anthropic/claude-sonnet-4-5", "--sandbox", "full"],
      {
        cwd: box.project,
        env,
        input: user("say hi"),
        keepStdinOpen: true,
        onSpawn: (spawned, output) => {
          child = spawned;
          stdout = output.stdout;
        },
      },
    );
    const question = await waitFor(stdout, (event) => event.type === "permission_request");
    child?.stdin?.write(
      `${JSON.stringify({ type: "permission_response", id: question.id, decision: "allow" })}\n`,
    );
    await waitFor(stdout, (event) => event.type === "result" && event.line === 1);
    child?.stdin?.write(user("think hard"));
    while (!JSON.stringify(server.requests.at(-1)?.body ?? "").includes("think hard"))
      await new Promise((resolve) => setTimeout(resolve, 20));
    child?.stdin?.write(
      `${JSON.stringify({ type: "control_request", request_id: "req-1", request: { subtype: "interrupt" } })}\n`,
    );
    await waitFor(stdout, (event) => event.type === "result" && event.line === 3);
    child?.stdin?.write("not json\n");
    // Plan mode on and off: mode_changed both ways.
    child?.stdin?.write(user("/plan on"));
    child?.stdin?.write(user("/plan off"));
    child?.stdin?.end();
    const events = jsonLines((await finished).stdout);

    expect(invalid(events)).toEqual([]);
    const types = events.map((event) => event.type);
    for (const type of ["permission_request", "control_response", "result", "error", "mode_changed", "done"])
      expect(types, type).toContain(type);
  });
});
