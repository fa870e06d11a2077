import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const OVERFLOW_BODY = JSON.stringify({
  type: "error",
  error: { type: "invalid_request_error", message: "prompt is too long: 212345 tokens > 200000 maximum" },
});

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

const text = (request: RecordedRequest | undefined): string => JSON.stringify(request?.body ?? "");
/** A child's requests carry the task instructions in their system prompt. */
const isChild = (request: RecordedRequest): boolean =>
  JSON.stringify((request.body as { system?: unknown }).system ?? "").includes("another agent handed you");
const isSummary = (request: RecordedRequest): boolean => text(request).includes("<transcript>");
/** The child's own prompt: the first user message's text. */
function childPrompt(request: RecordedRequest): string {
  const first = (request.body as { messages: Array<{ content: unknown }> }).messages[0]?.content;
  return JSON.stringify(first);
}
/**
 * Tool-call rounds a child has had so far: the tool_result blocks in its messages (not the tool
 * definitions, where recall's own `tool_result` parameter is named).
 */
const rounds = (request: RecordedRequest): number =>
  JSON.stringify((request.body as { messages?: unknown }).messages ?? []).split('"type":"tool_result"')
    .length - 1;

interface Script {
  parent: (request: RecordedRequest, index: number) => FakeReply;
  child: (request: RecordedRequest) => FakeReply;
}

async function project(script: Script, config: Record<string, unknown> = {}) {
  const box = await makeSandbox();
  let parentIndex = 0;
  const server = await startFakeAnthropicServer({
    responder: (request) => {
      if (isSummary(request)) return { type: "text", text: "SUMMARY-OF-EARLIER-WORK" };
      if (isChild(request)) return script.child(request);
      return script.parent(request, parentIndex++);
    },
  });
  servers.push(server);
  await mkdir(join(box.project, "src"));
  await writeFile(join(box.project, "src", "alpha.txt"), "ALPHA-FILE-CONTENT: the parser lives here\n");
  await mkdir(join(box.project, ".panto"));
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ model: MODEL, ...config }));
  const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
  const run = (args: string[], onSpawn?: Parameters<typeof runPanto>[1]["onSpawn"]) =>
    runPanto(args, { cwd: box.project, env, ...(onSpawn === undefined ? {} : { onSpawn }) });
  return { box, server, run };
}

const taskCall = (id: string, prompt: string, description = prompt): FakeReply => ({
  type: "tool-calls",
  calls: [{ id, name: "task", arguments: { description, prompt } }],
});

/** The text of the tool result with this id in a request (what the parent's model was told). */
function toolResultText(request: RecordedRequest | undefined, id: string): string {
  const messages = (request?.body as { messages?: Array<{ content: unknown }> } | undefined)?.messages ?? [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<Record<string, unknown>>)
      if (block.type === "tool_result" && block.tool_use_id === id) return JSON.stringify(block.content);
  }
  return "";
}

describe("the task tool (built CLI against a fake Anthropic server)", { timeout: 120_000 }, () => {
  it("runs a child whose turn ends on a tool call, asks it once to conclude, and reports answer, files and commands", async () => {
    const { server, run, box } = await project({
      parent: (_request, index) =>
        index === 0
          ? taskCall("toolu_task1", "Find where the parser lives")
          : { type: "text", text: "The parser is in src/alpha.txt." },
      child: (request) => {
        if (text(request).includes("no more tool calls"))
          return {
            type: "text",
            text: "FOUND: the parser lives in src/alpha.txt\nSecond line of the findings.",
          };
        return rounds(request) === 0
          ? {
              type: "tool-calls",
              calls: [{ id: "c_read", name: "read", arguments: { path: "src/alpha.txt" } }],
            }
          : {
              type: "tool-calls",
              calls: [
                { id: `c_bash${rounds(request)}`, name: "bash", arguments: { command: "echo checked" } },
              ],
            };
      },
    });
    const result = await run(["--json", "--allow-tools", "--max-turns", "2", "-p", "where is the parser?"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    // The child's events are nested under the task's tool-call id.
    const started = events.find((event) => event.type === "task_started");
    expect(started).toMatchObject({ tool_call_id: "toolu_task1", agent: "general" });
    const nested = events.filter((event) => event.type === "task_event");
    expect(nested.map((event) => (event.event as { type: string }).type)).toContain("tool_call");
    expect(nested.every((event) => event.tool_call_id === "toolu_task1")).toBe(true);
    expect(events.find((event) => event.type === "task_finished")).toMatchObject({ ok: true });
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.name)).toEqual(["task"]);

    // The parent's second request carries the report, not the child's transcript.
    const parentFinal = server.requests.filter((request) => !isChild(request)).at(-1);
    const report = toolResultText(parentFinal, "toolu_task1");
    expect(report).toContain('task general \\"Find where the parser lives\\" (session ');
    expect(report).toContain("FOUND: the parser lives in src/alpha.txt\\nSecond line of the findings.");
    expect(report).toContain("asked once to conclude");
    expect(report).toContain("## Files read (1)\\n- src/alpha.txt");
    expect(report).toContain("`echo checked` → Exit code: 0");
    expect(text(parentFinal)).not.toContain("ALPHA-FILE-CONTENT");
    // --max-turns 2 reached the child: two working requests, then the one conclusion request.
    expect(server.requests.filter(isChild)).toHaveLength(3);
    // The task list is the parent's: a child is offered neither task nor todo.
    const toolNames = (request: RecordedRequest | undefined) =>
      (((request?.body ?? {}) as { tools?: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
    expect(toolNames(server.requests.find(isChild))).not.toContain("todo");
    expect(toolNames(server.requests.find(isChild))).not.toContain("task");
    expect(toolNames(parentFinal)).toEqual(expect.arrayContaining(["task", "todo"]));

    // Its own session, listed under the parent's and resumable on its own.
    const sessionId = String(started?.session_id);
    const header = JSON.parse((await readFile(String(started?.session_path), "utf8")).split("\n")[0] ?? "{}");
    const parentStart = events.find((event) => event.type === "session_started");
    expect(header.parent).toMatchObject({ relation: "task", path: parentStart?.session_path });
    const list = await run(["sessions", "--json"]);
    const child = (JSON.parse(list.stdout) as Array<{ id: string; parent?: { relation: string } }>).find(
      (session) => session.id === sessionId,
    );
    expect(child?.parent?.relation).toBe("task");
    const resumed = await run(["-r", sessionId.slice(0, 8), "-p", "anything else?"]);
    expect(resumed.code).toBe(0);
    expect(text(server.requests.at(-1))).toContain("ALPHA-FILE-CONTENT");
    expect(existsSync(join(box.project, "src", "alpha.txt"))).toBe(true);
  });

  it("runs two task calls of one round in parallel, and one at a time with max_parallel_tasks 1", async () => {
    const script: Script = {
      parent: (_request, index) =>
        index === 0
          ? {
              type: "tool-calls",
              calls: [
                { id: "toolu_a", name: "task", arguments: { prompt: "look for alpha" } },
                { id: "toolu_b", name: "task", arguments: { prompt: "look for beta" } },
              ],
            }
          : { type: "text", text: "both done" },
      child: (request) => {
        const which = childPrompt(request).includes("alpha") ? "alpha" : "beta";
        return rounds(request) === 0
          ? {
              type: "tool-calls",
              calls: [{ id: `c_${which}`, name: "bash", arguments: { command: "sleep 0.4" } }],
            }
          : { type: "text", text: `REPORT-${which.toUpperCase()}` };
      },
    };
    const order = (server: FakeServer): string[] =>
      server.requests
        .filter(isChild)
        .map((request) => `${childPrompt(request).includes("alpha") ? "a" : "b"}${rounds(request)}`);

    const parallel = await project(script);
    const result = await parallel.run(["--allow-tools", "-p", "look for both"]);
    expect(result.code).toBe(0);
    // Both children asked their first question before either had its tool result.
    expect(order(parallel.server).slice(0, 2).sort()).toEqual(["a0", "b0"]);
    const final = parallel.server.requests.filter((request) => !isChild(request)).at(-1);
    expect(toolResultText(final, "toolu_a")).toContain("REPORT-ALPHA");
    expect(toolResultText(final, "toolu_b")).toContain("REPORT-BETA");

    const serial = await project(script, { max_parallel_tasks: 1 });
    expect((await serial.run(["--allow-tools", "-p", "look for both"])).code).toBe(0);
    expect(order(serial.server)).toEqual(["a0", "a1", "b0", "b1"]);
  });

  it("compacts only the child when the child's request overflows", async () => {
    const { server, run } = await project(
      {
        parent: (_request, index) =>
          index === 0 ? taskCall("toolu_big", "Read the parser") : { type: "text", text: "thanks" },
        child: (request) => {
          if (text(request).includes("no more tool calls"))
            return text(request).includes("SUMMARY-OF-EARLIER-WORK")
              ? { type: "text", text: "CONCLUDED after compaction" }
              : { type: "error", status: 400, body: OVERFLOW_BODY };
          return {
            type: "tool-calls",
            calls: [{ id: `c_r${rounds(request)}`, name: "read", arguments: { path: "src/alpha.txt" } }],
          };
        },
      },
      { keep_verbatim_tokens: 10 },
    );
    const result = await run(["--json", "--max-turns", "2", "-p", "read it"]);
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    const childCompaction = events.find(
      (event) => event.type === "task_event" && (event.event as { type: string }).type === "compaction",
    );
    expect(childCompaction).toMatchObject({ tool_call_id: "toolu_big", event: { trigger: "overflow" } });
    expect(events.some((event) => event.type === "compaction")).toBe(false);
    const started = events.find((event) => event.type === "task_started");
    const childFile = await readFile(String(started?.session_path), "utf8");
    expect(childFile).toContain('"type":"compaction"');
    const parentStart = events.find((event) => event.type === "session_started");
    expect(await readFile(String(parentStart?.session_path), "utf8")).not.toContain('"type":"compaction"');
    expect(toolResultText(server.requests.filter((r) => !isChild(r)).at(-1), "toolu_big")).toContain(
      "CONCLUDED after compaction",
    );
  });

  it("denies a child's bash call when nobody may approve it, and the report says so", async () => {
    const { server, run, box } = await project({
      parent: (_request, index) =>
        index === 0 ? taskCall("toolu_d", "Make a file") : { type: "text", text: "ok" },
      child: (request) =>
        rounds(request) === 0
          ? {
              type: "tool-calls",
              calls: [{ id: "c_touch", name: "bash", arguments: { command: "touch made.txt" } }],
            }
          : { type: "text", text: "I was not allowed to create made.txt." },
    });
    // Without a sandbox bash asks, as write and edit do (inside one it would run unasked).
    const result = await run(["--sandbox", "full", "-p", "make it"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(box.project, "made.txt"))).toBe(false);
    // The denial names the task that made the call: it is not one of the main agent's.
    expect(result.stderr).toMatch(/denied bash \(asked by task \S+: Make a file\)/);
    const report = toolResultText(server.requests.filter((r) => !isChild(r)).at(-1), "toolu_d");
    expect(report).toContain("`touch made.txt` → The user did not allow this tool call.");
    expect(report).toContain("I was not allowed to create made.txt.");
  });

  it("runs a child's commands in the parent's sandbox: unasked inside the project, refused outside it", async () => {
    // Not under /tmp: the sandbox gives commands a private /tmp, where a write succeeds unseen.
    const outside = `/var/tmp/panto-task-outside-${process.pid}.txt`;
    const { server, run, box } = await project({
      parent: (_request, index) =>
        index === 0 ? taskCall("toolu_s", "Make files") : { type: "text", text: "ok" },
      child: (request) =>
        rounds(request) === 0
          ? {
              type: "tool-calls",
              calls: [
                { id: "c_in", name: "bash", arguments: { command: "touch made.txt" } },
                { id: "c_out", name: "bash", arguments: { command: `touch ${outside}` } },
              ],
            }
          : { type: "text", text: "Made one file; the other was refused." },
    });
    const result = await run(["-p", "make them"]);
    expect(result.code).toBe(0);
    expect(existsSync(join(box.project, "made.txt"))).toBe(true);
    expect(existsSync(outside)).toBe(false);
    expect(result.stderr).not.toContain("denied bash");
    const report = toolResultText(server.requests.filter((r) => !isChild(r)).at(-1), "toolu_s");
    expect(report).toContain("`touch made.txt` → Exit code: 0");
    expect(report).toMatch(
      /`touch \/var\/tmp\/panto-task-outside-\d+\.txt` → Note: \W*Read-only file system\W* comes from the sandbox/,
    );
  });

  it("stops a running child on Ctrl-C (SIGINT) and exits 130", async () => {
    const { server, run } = await project({
      parent: () => taskCall("toolu_i", "Wait forever"),
      child: () => ({ type: "hang" }),
    });
    const result = await run(["--json", "-p", "wait"], (child) => {
      const timer = setInterval(() => {
        if (server.requests.some(isChild)) {
          clearInterval(timer);
          child.kill("SIGINT");
        }
      }, 20);
    });
    expect(result.code).toBe(130);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "task_finished")).toMatchObject({ ok: false });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 130 });
  });

  it("keeps one line per task report through the parent's compaction, naming the child's session", async () => {
    const { server, run } = await project(
      {
        parent: (_request, index) => {
          if (index === 0) return taskCall("toolu_k", "Find the parser", "find the parser");
          return { type: "text", text: `answer ${index}` };
        },
        child: () => ({ type: "text", text: "PARSER-AT src/alpha.txt line 1" }),
      },
      { keep_verbatim_tokens: 10 },
    );
    const first = await run(["--json", "-p", "where is the parser?"]);
    expect(first.code).toBe(0);
    const sessionId = String(
      jsonLines(first.stdout).find((event) => event.type === "task_started")?.session_id,
    );
    const compact = await run(["-c", "--json", "-p", "/compact"]);
    const compaction = jsonLines(compact.stdout).find((event) => event.type === "compaction");
    expect(compaction?.restored).toContainEqual({
      kind: "task",
      text: `task general "find the parser" (session ${sessionId.slice(0, 8)}): PARSER-AT src/alpha.txt line 1`,
    });
    expect((await run(["-c", "-p", "and then?"])).code).toBe(0);
    const after = text(server.requests.at(-1));
    expect(after).toContain("SUMMARY-OF-EARLIER-WORK");
    expect(after).toContain(`- task: task general \\"find the parser\\" (session ${sessionId.slice(0, 8)})`);
  });
});

describe("custom agents from .panto/agents and .claude/agents", { timeout: 60_000 }, () => {
  it("runs a named agent with its own system prompt, tool subset and model; a broken file is a warning naming it", async () => {
    const { server, run, box } = await project({
      parent: (_request, index) =>
        index === 0
          ? {
              type: "tool-calls",
              calls: [
                { id: "toolu_r", name: "task", arguments: { prompt: "review it", agent: "reviewer" } },
                { id: "toolu_x", name: "task", arguments: { prompt: "x", agent: "broken" } },
              ],
            }
          : { type: "text", text: "reviewed" },
      child: () => ({ type: "text", text: "LGTM" }),
    });
    await mkdir(join(box.project, ".panto", "agents"), { recursive: true });
    await mkdir(join(box.project, ".claude", "agents"), { recursive: true });
    await writeFile(
      join(box.project, ".claude", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews a change\ntools: Read, Grep\nmodel: anthropic/claude-haiku-4-5\n---\nYou are REVIEWER-PROMPT.\n",
    );
    await writeFile(
      join(box.project, ".panto", "agents", "broken.md"),
      "---\nname: broken\ndescription: [unclosed\n---\nbody\n",
    );
    const result = await run(["-p", "review"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `agent file ${join(box.project, ".panto", "agents", "broken.md")} line 4`,
    );
    const parentFirst = server.requests[0];
    expect(text(parentFirst)).toContain("- reviewer: Reviews a change");
    const child = server.requests.find(isChild);
    const body = child?.body as { model: string; tools: Array<{ name: string }>; system: unknown };
    expect(body.model).toBe("claude-haiku-4-5");
    expect(body.tools.map((tool) => tool.name).sort()).toEqual(["grep", "read"]);
    expect(JSON.stringify(body.system)).toContain("You are REVIEWER-PROMPT.");
    const final = server.requests.filter((request) => !isChild(request)).at(-1);
    expect(toolResultText(final, "toolu_r")).toContain("LGTM");
    expect(toolResultText(final, "toolu_x")).toContain("broken.md line 4");
  });
});
