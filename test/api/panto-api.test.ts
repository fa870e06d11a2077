import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  ConfigError,
  createPanto,
  type PantoEvent,
  type PantoOptions,
  type PantoSession,
  PantoSetupError,
  type PermissionRequest,
} from "../../src/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer, RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox } from "../cli/panto-process.js";
import { bashCall } from "../support/tool-calls.js";

// The program API (`createPanto`): sessions held open in the test's own process, set up as the CLI
// sets up a run, against the fake Anthropic server over real HTTP. Every event a test sees is
// checked against the shipped schema (schema/events.json) with a JSON Schema validator.

const MODEL = "anthropic/claude-sonnet-4-5";
const SUMMARY = "SUMMARY-OF-EARLIER-WORK: the user asked about the parser.";

const ajv = new Ajv2020.default({ allErrors: true, allowUnionTypes: true });
const validate = ajv.compile(
  JSON.parse(readFileSync(new URL("../../schema/events.json", import.meta.url), "utf8")),
);

/** Fails with the event and what the schema says of it when it does not validate. */
function expectValid(events: readonly PantoEvent[]): void {
  for (const event of events)
    expect(validate(event) ? "valid" : { event, errors: validate.errors }, event.type).toBe("valid");
}

const servers: FakeServer[] = [];
const sessions: PantoSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The text of the last user message of a request (what the prompt of its turn was). */
function lastUserText(request: RecordedRequest): string {
  const messages = (request.body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const users = messages.filter((message) => message.role === "user");
  return JSON.stringify(users.at(-1)?.content ?? "");
}

/** A fake server, a sandboxed project and PANTO_HOME, and options for `createPanto` there. */
async function setUp(responder?: (request: RecordedRequest) => FakeReply, firstByteDelayMs = 0) {
  const box = await makeSandbox();
  const server = await startFakeAnthropicServer({
    ...(responder === undefined ? {} : { responder }),
    ...(firstByteDelayMs === 0 ? {} : { firstByteDelayMs }),
  });
  servers.push(server);
  const options: PantoOptions = {
    cwd: box.project,
    model: MODEL,
    env: { ...box.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url },
    // No sandbox: bash then needs approval, which is what these tests follow.
    sandbox: "full",
  };
  return { box, server, options };
}

async function open(session: Promise<PantoSession>): Promise<PantoSession> {
  const opened = await session;
  sessions.push(opened);
  return opened;
}

async function collect(stream: AsyncIterable<PantoEvent>): Promise<PantoEvent[]> {
  const events: PantoEvent[] = [];
  for await (const event of stream) events.push(event);
  expectValid(events);
  return events;
}

describe("the program API (createPanto)", { timeout: 60_000 }, () => {
  it("streams a turn with a tool call as the --json events, in order, ending with result", async () => {
    const { server, options } = await setUp();
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_ls", name: "ls", arguments: { path: "." } }] },
      { type: "text", text: "The project is empty." },
    );
    const panto = await createPanto(options);
    const session = await open(panto.startSession());
    const events = await collect(session.stream("what is in this folder?"));
    expect(events.map((event) => event.type)).toEqual([
      "session_started",
      "tool_call",
      "assistant_message",
      "tool_result",
      "assistant_message",
      "result",
    ]);
    expect(events[0]).toMatchObject({ session_id: session.id, model: MODEL, resumed: false });
    expect(events[1]).toEqual({ type: "tool_call", id: "toolu_ls", name: "ls", arguments: { path: "." } });
    expect(events[3]).toMatchObject({ tool_call_id: "toolu_ls", is_error: false });
    expect(events.at(-1)).toMatchObject({
      type: "result",
      exit_code: 0,
      is_error: false,
      text: "The project is empty.",
      session_id: session.id,
      usage: { input_tokens: expect.any(Number), compaction: { input_tokens: 0 } },
    });
    // The next turn of the same session: no second session_started, the conversation goes on.
    server.enqueue({ type: "text", text: "Still empty." });
    const next = await session.run("and now?");
    expect(next.events.map((event) => event.type)).toEqual(["assistant_message", "result"]);
    expect(next).toMatchObject({ ok: true, exitCode: 0, text: "Still empty.", sessionId: session.id });
    expect(lastUserText(server.requests.at(-1) as RecordedRequest)).toContain("and now?");
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("what is in this folder?");
  });

  it("runs two sessions of one process at once, each with its own conversation, answers and file", async () => {
    // One server for both: each request is answered by what its own session asked.
    const { options } = await setUp((request) => {
      const asked = lastUserText(request);
      if (asked.includes("tool_result"))
        return { type: "text", text: `done ${/echo (\w+)/.exec(asked)?.[1]}` };
      const name = /go (\w+)/.exec(asked)?.[1] ?? "?";
      return bashCall(`toolu_${name}`, `echo ${name}`);
    });
    const asked: Array<[string, string]> = [];
    const answers: Record<string, "allow_always" | "deny"> = { A: "allow_always", B: "deny" };
    const panto = await createPanto({
      ...options,
      onPermission: (request) => {
        const name = String(request.input.command).slice("echo ".length);
        asked.push([name, request.tool]);
        return answers[name] ?? "deny";
      },
    });
    const [a, b] = await Promise.all([open(panto.startSession()), open(panto.startSession())]);
    const [resultA, resultB] = await Promise.all([a.run("go A"), b.run("go B")]);
    expectValid([...resultA.events, ...resultB.events]);
    expect(a.id).not.toBe(b.id);
    expect(a.path).not.toBe(b.path);
    expect(resultA).toMatchObject({ ok: true, sessionId: a.id });
    expect(resultB).toMatchObject({ ok: true, sessionId: b.id });
    const toolResults = (events: PantoEvent[]) =>
      events.flatMap((event) => (event.type === "tool_result" ? [[event.tool_call_id, event.is_error]] : []));
    expect(toolResults(resultA.events)).toEqual([["toolu_A", false]]);
    expect(toolResults(resultB.events)).toEqual([["toolu_B", true]]);
    expect(asked.sort()).toEqual([
      ["A", "bash"],
      ["B", "bash"],
    ]);
    // Each file holds its own conversation only.
    const fileA = await readFile(a.path, "utf8");
    const fileB = await readFile(b.path, "utf8");
    expect(fileA).toContain("go A");
    expect(fileA).not.toContain("go B");
    expect(fileB).toContain("go B");
    expect(fileB).not.toContain("go A");
    // A's "allow_always" holds in A only: its next bash call is not asked, B's still is.
    asked.length = 0;
    const [againA, againB] = await Promise.all([a.run("go A"), b.run("go B")]);
    expect(toolResults(againA.events)).toEqual([["toolu_A", false]]);
    expect(toolResults(againB.events)).toEqual([["toolu_B", true]]);
    expect(asked).toEqual([["B", "bash"]]);
  });

  it("asks onPermission with the permission_request event, and a denial reaches the model as the call's failure", async () => {
    const { server, options } = await setUp();
    server.enqueue(bashCall("toolu_rm", "rm -rf build"), { type: "text", text: "I was not allowed." });
    const requests: PermissionRequest[] = [];
    const panto = await createPanto({
      ...options,
      onPermission: async (request) => {
        requests.push(request);
        return "deny" as const;
      },
    });
    const session = await open(panto.startSession());
    const result = await session.run("clean the build");
    expectValid(result.events);
    expect(requests).toEqual([
      {
        type: "permission_request",
        id: "permission-1",
        tool: "bash",
        input: { command: "rm -rf build" },
        tool_call_id: "toolu_rm",
        suggested_rules: ["Bash(rm:*)"],
      },
    ]);
    expect(result.events.map((event) => event.type)).toEqual([
      "session_started",
      "tool_call",
      "assistant_message",
      "permission_request",
      "tool_result",
      "assistant_message",
      "result",
    ]);
    expect(result.events.find((event) => event.type === "tool_result")).toMatchObject({ is_error: true });
    expect(result).toMatchObject({ ok: true, text: "I was not allowed." });
    // The model was told the call was denied.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("The user did not allow this tool call");
  });

  it("without onPermission applies print mode's rules: the call is denied and a warning says so", async () => {
    const { server, options } = await setUp();
    server.enqueue(bashCall("toolu_x", "touch x"), { type: "text", text: "ok" });
    const session = await open((await createPanto(options)).startSession());
    const result = await session.run("make x");
    expectValid(result.events);
    expect(result.events.some((event) => event.type === "permission_request")).toBe(false);
    expect(result.events.find((event) => event.type === "warning")).toMatchObject({
      message: expect.stringContaining("toolu_x"),
    });
    expect(result.events.find((event) => event.type === "tool_result")).toMatchObject({ is_error: true });
  });

  it("a callback that throws or answers nonsense denies the call, with a warning", async () => {
    const { server, options } = await setUp();
    server.enqueue(bashCall("toolu_1", "echo 1"), bashCall("toolu_2", "echo 2"), {
      type: "text",
      text: "ok",
    });
    let calls = 0;
    const panto = await createPanto({
      ...options,
      onPermission: () => {
        calls += 1;
        if (calls === 1) throw new Error("policy server down");
        return "yes" as "allow";
      },
    });
    const result = await (await open(panto.startSession())).run("echo twice");
    expectValid(result.events);
    const warnings = result.events.flatMap((event) => (event.type === "warning" ? [event.message] : []));
    expect(warnings).toEqual([
      "onPermission threw on bash (policy server down); the call is denied",
      'onPermission answered "yes" on bash, not "allow", "allow_always" or "deny"; the call is denied',
    ]);
    expect(result.events.filter((event) => event.type === "tool_result" && event.is_error)).toHaveLength(2);
  });

  it("ends a turn within 2 s of its signal's abort, reported as interrupted; the session goes on", async () => {
    const { server, options } = await setUp();
    server.enqueue({ type: "hang", afterText: "Let me think" });
    const session = await open((await createPanto(options)).startSession());
    const controller = new AbortController();
    const running = session.run("think forever", { signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    const abortedAt = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expectValid(result.events);
    expect(result).toMatchObject({ ok: false, interrupted: true, exitCode: 130, error: { code: "aborted" } });
    expect(result.events.at(-1)).toMatchObject({ type: "result", exit_code: 130, is_error: true });
    server.enqueue({ type: "text", text: "Back." });
    expect(await session.run("still there?")).toMatchObject({ ok: true, text: "Back." });
  });

  it("stops the turn when the program stops reading its stream", async () => {
    const { options } = await setUp((request) => {
      const asked = lastUserText(request);
      if (asked.includes("next")) return { type: "text", text: "Next." };
      if (asked.includes("tool_result")) return { type: "hang" };
      return { type: "tool-calls", calls: [{ id: "toolu_ls", name: "ls", arguments: { path: "." } }] };
    });
    const session = await open((await createPanto(options)).startSession());
    for await (const event of session.stream("list, then think")) if (event.type === "tool_result") break;
    // The turn ended: the next one runs.
    expect(await session.run("next")).toMatchObject({ ok: true, text: "Next." });
  });

  it("resumes a session by its id prefix with the conversation so far", async () => {
    const { server, options } = await setUp();
    server.enqueue({ type: "text", text: "Noted: the parser is in src/csv.ts." });
    const panto = await createPanto(options);
    const first = await open(panto.startSession());
    await first.run("remember: the parser is in src/csv.ts");
    const id = first.id;
    await first.close();

    server.enqueue({ type: "text", text: "In src/csv.ts." });
    const resumed = await open(panto.resumeSession(id.slice(0, 8)));
    expect(resumed).toMatchObject({ id, path: first.path, resumed: true, model: MODEL });
    const result = await resumed.run("where is the parser?");
    expectValid(result.events);
    expect(result.events[0]).toMatchObject({ type: "session_started", session_id: id, resumed: true });
    expect(result).toMatchObject({ ok: true, sessionId: id, text: "In src/csv.ts." });
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain("remember: the parser is in src/csv.ts");
    expect(sent).toContain("Noted: the parser is in src/csv.ts.");
  });

  it("compacts through session.compact with instructions, and later turns carry the summary", async () => {
    const { server, options } = await setUp((request) => {
      const text = JSON.stringify(request.body);
      if (text.includes("<transcript>")) return { type: "text", text: SUMMARY };
      return { type: "text", text: `Answer. ${"Details about the parser. ".repeat(20)}` };
    });
    // Settings given by the program: keep almost nothing verbatim, so there is something to summarise.
    const panto = await createPanto({ ...options, config: { keep_verbatim_tokens: 10 } });
    const session = await open(panto.startSession());
    await session.run("question one");
    await session.run("question two");
    const compacted = await session.compact("keep the parser notes");
    expectValid(compacted.events);
    expect(compacted.ok).toBe(true);
    expect(compacted.events.map((event) => event.type)).toEqual([
      "compaction_started",
      "compaction",
      "result",
    ]);
    expect(compacted.events[1]).toMatchObject({
      type: "compaction",
      trigger: "manual",
      summary: SUMMARY,
      instructions: "keep the parser notes",
    });
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("keep the parser notes");
    await session.run("question three");
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("SUMMARY-OF-EARLIER-WORK");
  });

  it("tells onEvent every event as it happens: a compaction prepared between turns before any next turn", async () => {
    // Every answer a little late, as over a network: the summary (asked once the turn's answer is in)
    // cannot come back before the turn's own last event, however loaded the machine.
    const { box, server, options } = await setUp(
      (request) =>
        ((request.body as { tools?: unknown[] }).tools ?? []).length === 0
          ? { type: "text", text: "PREPARED-SUMMARY" }
          : { type: "text", text: "Read it." },
      300,
    );
    await writeFile(join(box.project, "big.txt"), `${"lorem ipsum ".repeat(8_300)}\n`);
    const heard: Array<{ type: string; session: string }> = [];
    const panto = await createPanto({
      ...options,
      config: { models: { [MODEL]: { context_window: 40_000 } }, prepare_compaction_at: 0.5 },
      onEvent: (event, session) => {
        heard.push({ type: event.type, session: session.id });
        if (event.type === "session_started") throw new Error("a listener that fails changes nothing");
      },
    });
    const session = await open(panto.startSession());
    const first = await session.run("read @big.txt");
    expect(first.ok).toBe(true);
    const types = first.events.map((event) => event.type);
    // The turn's own events, heard in the order its stream yielded them.
    expect(heard.slice(0, types.length).map((event) => event.type)).toEqual(types);
    await vi.waitFor(() => expect(heard.map((event) => event.type)).toContain("compaction_prepared"), {
      timeout: 10_000,
    });
    // Written while no turn ran: the stream of the turn before does not hold it.
    expect(types).not.toContain("compaction_prepared");
    expect(
      server.requests.filter((request) => JSON.stringify(request.body).includes("<transcript>")),
    ).toHaveLength(1);
    expect(new Set(heard.map((event) => event.session))).toEqual(new Set([session.id]));
  });

  it("compact_when_cold: a session idle past the cache's lifetime has the summary written meanwhile, and the next turn applies it without a summary request of its own", async () => {
    const { box, server, options } = await setUp((request) =>
      ((request.body as { tools?: unknown[] }).tools ?? []).length === 0
        ? { type: "text", text: "WRITTEN-WHILE-IDLE" }
        : { type: "text", text: "Read it." },
    );
    await writeFile(join(box.project, "big.txt"), `${"lorem ipsum ".repeat(8_300)}\n`);
    const heard: PantoEvent[] = [];
    const panto = await createPanto({
      ...options,
      config: {
        models: { [MODEL]: { context_window: 40_000 } },
        compact_when_cold: 0.3,
        // A cache that lives a second: the run's timer fires a second after that.
        clearing: { cache_ttl_seconds: 1 },
      },
      onEvent: (event) => {
        heard.push(event);
      },
    });
    const session = await open(panto.startSession());
    expect((await session.run("read @big.txt")).ok).toBe(true);
    await vi.waitFor(
      () =>
        expect(heard.find((event) => event.type === "compaction_prepared")).toMatchObject({
          cold_cache: true,
        }),
      { timeout: 10_000 },
    );
    const summaries = () =>
      server.requests.filter((request) => JSON.stringify(request.body).includes("<transcript>"));
    expect(summaries()).toHaveLength(1);
    const next = await session.run("and now?");
    expect(next.ok).toBe(true);
    expectValid(next.events);
    expect(next.events.find((event) => event.type === "compaction")).toMatchObject({
      trigger: "cold_cache",
      prepared: true,
      summary: "WRITTEN-WHILE-IDLE",
    });
    expect(summaries()).toHaveLength(1);
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("WRITTEN-WHILE-IDLE");
  });

  it("refuses bad settings up front, naming the key, and a session without a key with a setup error", async () => {
    const { options } = await setUp();
    await expect(
      createPanto({ ...options, config: { keep_verbatim_tokens: "many" } as never }),
    ).rejects.toThrow(ConfigError);
    await expect(
      createPanto({ ...options, config: { keep_verbatim_tokens: "many" } as never }),
    ).rejects.toThrow(/createPanto\(\{ config \}\): "keep_verbatim_tokens"/);
    const { ANTHROPIC_API_KEY: _key, ...withoutKey } = options.env ?? {};
    const panto = await createPanto({ ...options, env: withoutKey });
    const failed = panto.startSession();
    await expect(failed).rejects.toThrow(PantoSetupError);
    await expect(failed).rejects.toMatchObject({ code: expect.stringMatching(/^(config|auth)$/) });
    await expect(failed).rejects.toThrow(/ANTHROPIC_API_KEY/);
  });

  it("close stops the running turn and tells a queued one it did not run", async () => {
    const { server, options } = await setUp();
    server.enqueue({ type: "hang" });
    const session = await open((await createPanto(options)).startSession());
    const running = session.run("think forever");
    const queued = session.run("then this");
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await session.close();
    expect(await running).toMatchObject({ interrupted: true, error: { code: "aborted" } });
    const notRun = await queued;
    expectValid(notRun.events);
    expect(notRun).toMatchObject({ ok: false, error: { code: "not_run" } });
    expect(server.requests).toHaveLength(1);
  });

  it("refuses a turn on a closed session", async () => {
    const { options } = await setUp();
    const session = await open((await createPanto(options)).startSession());
    await session.close();
    await expect(session.run("hello")).rejects.toThrow("this panto session is closed");
  });
});
