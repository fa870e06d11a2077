import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, PANTO_MAIN, type PantoRun, runPanto } from "./panto-process.js";

// `panto --input-format stream-json --json`: one process, one session, fed one JSON message a line
// on stdin while it runs. Each test drives the built CLI against the fake Anthropic server, writing
// stdin as the conversation goes, as a program using panto would.

const MODEL = "anthropic/claude-sonnet-4-5";
const STREAM = ["--input-format", "stream-json", "--json", "-m", MODEL, "--sandbox", "full"];

type Event = { type: string } & Record<string, unknown>;

let servers: FakeServer[] = [];
let children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  children = [];
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

const user = (content: unknown): string =>
  `${JSON.stringify({ type: "user", message: { role: "user", content } })}\n`;

/** A running stream-json panto: write lines to it, wait for events, and collect how it ended. */
interface StreamProcess {
  server: FakeServer;
  write(text: string): void;
  end(): void;
  events(): Event[];
  /** The first event `match` accepts, once it has been written (rejects if panto exits first). */
  waitFor(match: (event: Event) => boolean): Promise<Event>;
  exit: Promise<PantoRun>;
}

async function startStream(
  server: FakeServerOptions & { replies?: Parameters<FakeServer["enqueue"]> },
  args: readonly string[] = STREAM,
): Promise<StreamProcess> {
  const box = await makeSandbox();
  const fake = await startFakeAnthropicServer(server);
  servers.push(fake);
  if (server.replies !== undefined) fake.enqueue(...server.replies);
  const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url };
  return { server: fake, ...spawnStream(box.project, env, args) };
}

/** Starts panto with stdin kept open for the test to write to. */
function spawnStream(
  cwd: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[],
): Omit<StreamProcess, "server"> {
  const child = spawn(process.execPath, [PANTO_MAIN, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  const waiters = new Set<() => void>();
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const wake of waiters) wake();
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exit = new Promise<PantoRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal, stdout, stderr });
    });
  });
  const events = (): Event[] => jsonLines(stdout.slice(0, stdout.lastIndexOf("\n") + 1));
  return {
    write: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
    events,
    waitFor: (match) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const found = events().find(match);
          if (found !== undefined) {
            waiters.delete(check);
            resolve(found);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            waiters.delete(check);
            reject(new Error(`panto exited before the event; stdout:\n${stdout}\nstderr:\n${stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
    exit,
  };
}

/** The model requests the server received (not its model list or window queries). */
const modelRequests = (server: FakeServer) =>
  server.requests.filter((request) => request.path.endsWith("/messages"));

/** Waits until the server has received `count` model requests (a turn is then streaming). */
async function requestsArrived(server: FakeServer, count: number): Promise<void> {
  while (modelRequests(server).length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

const results = (events: Event[]) => events.filter((event) => event.type === "result");

async function sessionEntries(path: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(path, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("panto --input-format stream-json", () => {
  it("answers three user messages in order in one session file, one result each, then done", async () => {
    let answered = 0;
    const panto = await startStream({
      responder: () => {
        answered += 1;
        return { type: "text", text: `ANSWER-${answered}` };
      },
    });
    panto.write(user("first question"));
    panto.write(user([{ type: "text", text: "second question" }]));
    panto.write(user("third question"));
    panto.end();
    const run = await panto.exit;
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events[0]?.type).toBe("session_started");
    expect(results(events).map((event) => [event.line, event.exit_code, event.text])).toEqual([
      [1, 0, "ANSWER-1"],
      [2, 0, "ANSWER-2"],
      [3, 0, "ANSWER-3"],
    ]);
    expect(events.filter((event) => event.type === "done")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0 });
    // One conversation: the third request carries the first two exchanges.
    const third = JSON.stringify(modelRequests(panto.server)[2]?.body);
    expect(third).toContain("first question");
    expect(third).toContain("ANSWER-2");
    const sessionPath = events[0]?.session_path as string;
    expect(await readdir(dirname(sessionPath))).toEqual([sessionPath.split("/").at(-1)]);
    const sessionId = events[0]?.session_id;
    expect(results(events).every((event) => event.session_id === sessionId)).toBe(true);
    const text = JSON.stringify(await sessionEntries(sessionPath));
    for (const expected of ["first question", "second question", "third question", "ANSWER-1", "ANSWER-3"])
      expect(text).toContain(expected);
  });

  it("interrupts the running turn on a control_request, acknowledges it, and answers the next message", async () => {
    const panto = await startStream({
      replies: [
        { type: "hang", afterText: "half an answ" },
        { type: "text", text: "AFTER-THE-INTERRUPT" },
      ],
    });
    panto.write(user("a long question"));
    await requestsArrived(panto.server, 1);
    panto.write(
      `${JSON.stringify({ type: "control_request", request_id: "req-7", request: { subtype: "interrupt" } })}\n`,
    );
    const ack = await panto.waitFor((event) => event.type === "control_response");
    expect(ack).toEqual({ type: "control_response", response: { subtype: "success", request_id: "req-7" } });
    const interrupted = await panto.waitFor((event) => event.type === "result" && event.line === 1);
    expect(interrupted).toMatchObject({ exit_code: 130, is_error: true });
    expect(panto.events().find((event) => event.type === "error")).toMatchObject({ code: "aborted" });
    panto.write(user("then this one"));
    panto.end();
    const run = await panto.exit;
    const events = jsonLines(run.stdout);
    expect(results(events).at(-1)).toMatchObject({ line: 3, exit_code: 0, text: "AFTER-THE-INTERRUPT" });
    // The last failure decides the exit status: the interrupted turn's.
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 130 });
    expect(run.code).toBe(130);
  });

  it("reports a malformed line as an error naming its line number and goes on", async () => {
    const panto = await startStream({ responder: () => ({ type: "text", text: "AN-ANSWER" }) });
    panto.write(user("first"));
    panto.write("{this is not json\n");
    panto.write(`${JSON.stringify({ type: "user", message: { role: "user" } })}\n`);
    panto.write(`${JSON.stringify({ type: "assistant", message: {} })}\n`);
    panto.write(user("fifth"));
    panto.end();
    const run = await panto.exit;
    const events = jsonLines(run.stdout);
    const errors = events.filter((event) => event.type === "error");
    expect(errors.map((event) => [event.code, String(event.message).split(":")[0]])).toEqual([
      ["usage", "stdin line 2"],
      ["usage", "stdin line 3"],
      ["usage", "stdin line 4"],
    ]);
    expect(String(errors[0]?.message)).toContain("not JSON");
    expect(String(errors[1]?.message)).toContain("message.content");
    expect(String(errors[2]?.message)).toContain('unknown type "assistant"');
    expect(results(events).map((event) => [event.line, event.exit_code])).toEqual([
      [1, 0],
      [5, 0],
    ]);
    expect(modelRequests(panto.server)).toHaveLength(2);
    // A line that could not be read is a usage failure of the session: exit 2.
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 2 });
    expect(run.code).toBe(2);
  });

  it("finishes the running turn when stdin closes mid-turn, then says done and exits", async () => {
    const panto = await startStream({
      firstByteDelayMs: 400,
      replies: [{ type: "text", text: "SLOW-ANSWER" }],
    });
    panto.write(user("a slow question"));
    await requestsArrived(panto.server, 1);
    panto.end();
    const run = await panto.exit;
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(results(events)).toEqual([
      expect.objectContaining({ line: 1, exit_code: 0, text: "SLOW-ANSWER" }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0 });
  });

  it("runs slash commands and !COMMAND through the same entry as the terminal", async () => {
    const panto = await startStream({ replies: [{ type: "text", text: "MODEL-ANSWER" }] });
    panto.write(user("hello"));
    panto.write(user("!echo shell-ran"));
    panto.write(user("/cost"));
    panto.end();
    const run = await panto.exit;
    const ended = results(jsonLines(run.stdout));
    expect(ended.map((event) => event.line)).toEqual([1, 2, 3]);
    expect(ended[1]?.text).toContain("shell-ran");
    expect(String(ended[2]?.text)).toMatch(/token|usage/i);
    expect(modelRequests(panto.server)).toHaveLength(1);
    expect(run.code).toBe(0);
  });

  describe("permission requests", () => {
    const writeCall = (id: string, path: string) => ({
      type: "tool-calls" as const,
      calls: [{ id, name: "write", arguments: { path, content: `${path}\n` } }],
    });
    const answer = (id: unknown, decision: string): string =>
      `${JSON.stringify({ type: "permission_response", id, decision })}\n`;

    it("waits for a permission_response: deny refuses the call, allow runs it", async () => {
      const panto = await startStream({
        replies: [
          writeCall("w1", "denied.txt"),
          { type: "text", text: "DONE-1" },
          writeCall("w2", "allowed.txt"),
          { type: "text", text: "DONE-2" },
        ],
      });
      panto.write(user("write denied.txt"));
      const first = await panto.waitFor((event) => event.type === "permission_request");
      expect(first).toEqual({
        type: "permission_request",
        id: first.id,
        tool: "write",
        input: { path: "denied.txt", content: "denied.txt\n" },
        tool_call_id: "w1",
        suggested_rules: ["Edit(./denied.txt)"],
      });
      panto.write(answer(first.id, "deny"));
      await panto.waitFor((event) => event.type === "result" && event.line === 1);
      panto.write(user("write allowed.txt"));
      const second = await panto.waitFor(
        (event) => event.type === "permission_request" && event.tool_call_id === "w2",
      );
      expect(second.id).not.toBe(first.id);
      panto.write(answer(second.id, "allow"));
      await panto.waitFor((event) => event.type === "result" && event.line === 3);
      panto.end();
      const run = await panto.exit;
      expect(run.code).toBe(0);
      const events = jsonLines(run.stdout);
      const toolResults = events.filter((event) => event.type === "tool_result");
      expect(toolResults.map((event) => [event.tool_call_id, event.is_error])).toEqual([
        ["w1", true],
        ["w2", false],
      ]);
      const project = String(events[0]?.cwd);
      expect(existsSync(join(project, "denied.txt"))).toBe(false);
      expect(await readFile(join(project, "allowed.txt"), "utf8")).toBe("allowed.txt\n");
    });

    it("allow_always adds the suggested rules for the session: a call they cover runs without a question, another is asked", async () => {
      const panto = await startStream({
        replies: [
          writeCall("w1", "one.txt"),
          { type: "text", text: "DONE-1" },
          writeCall("w2", "one.txt"),
          { type: "text", text: "DONE-2" },
          writeCall("w3", "two.txt"),
          { type: "text", text: "DONE-3" },
        ],
      });
      panto.write(user("write one.txt"));
      const asked = await panto.waitFor((event) => event.type === "permission_request");
      expect(asked.suggested_rules).toEqual(["Edit(./one.txt)"]);
      panto.write(answer(asked.id, "allow_always"));
      panto.write(user("write one.txt again"));
      panto.write(user("write two.txt"));
      const second = await panto.waitFor(
        (event) => event.type === "permission_request" && event.tool_call_id === "w3",
      );
      panto.write(answer(second.id, "deny"));
      panto.end();
      const run = await panto.exit;
      const events = jsonLines(run.stdout);
      expect(
        events.filter((event) => event.type === "permission_request").map((event) => event.tool_call_id),
      ).toEqual(["w1", "w3"]);
      expect(
        events
          .filter((event) => event.type === "tool_result")
          .map((event) => [event.tool_call_id, event.is_error]),
      ).toEqual([
        ["w1", false],
        ["w2", false],
        ["w3", true],
      ]);
      expect(run.code).toBe(0);
    });

    it("denies a question still open when stdin closes, and a response naming no open question is an error", async () => {
      const panto = await startStream({
        replies: [writeCall("w1", "never.txt"), { type: "text", text: "GAVE-UP" }],
      });
      panto.write(answer("permission-99", "allow"));
      await panto.waitFor((event) => event.type === "error");
      panto.write(user("write never.txt"));
      await panto.waitFor((event) => event.type === "permission_request");
      panto.end();
      const run = await panto.exit;
      const events = jsonLines(run.stdout);
      expect(events.find((event) => event.type === "error")).toMatchObject({
        code: "usage",
        message: 'stdin line 1: no permission request "permission-99" is waiting for an answer',
      });
      expect(events.find((event) => event.type === "tool_result")).toMatchObject({
        tool_call_id: "w1",
        is_error: true,
      });
      expect(results(events)).toEqual([expect.objectContaining({ line: 2, exit_code: 0, text: "GAVE-UP" })]);
      expect(existsSync(join(String(events[0]?.cwd), "never.txt"))).toBe(false);
    });
  });

  it("stops the session's background commands when stdin ends, and reports their end before done", async () => {
    const panto = await startStream(
      {
        replies: [
          {
            type: "tool-calls",
            calls: [{ id: "bg", name: "bash", arguments: { command: "sleep 30", run_in_background: true } }],
          },
          { type: "text", text: "STARTED" },
        ],
      },
      [...STREAM, "--allow-tools"],
    );
    panto.write(user("start a long command"));
    await panto.waitFor((event) => event.type === "result" && event.line === 1);
    panto.end();
    const run = await panto.exit;
    expect(run.code).toBe(0);
    const types = jsonLines(run.stdout).map((event) => event.type);
    expect(types.at(-1)).toBe("done");
    expect(types.indexOf("background_task_exited")).toBeGreaterThan(types.indexOf("background_task_started"));
    expect(jsonLines(run.stdout).find((event) => event.type === "background_task_exited")).toMatchObject({
      ending: "killed",
      killed_by: "session-end",
    });
  });

  it("is long-lived: a context warning, a compaction prepared ahead, and /compact applying it", async () => {
    const box = await makeSandbox();
    // The window the server reports and enforces: one attached big.txt (~25k tokens) passes half of it.
    const server = await startFakeOpenAIChatServer({
      serverInfo: { kind: "llama.cpp", contextWindow: 40_000 },
      contextWindow: 40_000,
    });
    servers.push(server);
    await mkdir(join(box.project, ".panto"));
    await writeFile(join(box.project, "big.txt"), `${"lorem ipsum ".repeat(8_300)}\n`);
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({
        model: "llamacpp/qwen2.5-7b",
        providers: { llamacpp: { base_url: server.url } },
        prepare_compaction_at: 0.5,
        // big.txt fills about 63% of the window: past this warning level too.
        context_warnings: [0.55],
        sandbox: "full",
      }),
    );
    server.enqueue({ type: "text", text: "Read it." }, { type: "text", text: "PREPARED-SUMMARY" });
    const panto = spawnStream(box.project, box.env, ["--input-format", "stream-json", "--json"]);
    panto.write(user("read @big.txt"));
    const prepared = await panto.waitFor((event) => event.type === "compaction_prepared");
    expect(prepared).toMatchObject({ model: "llamacpp/qwen2.5-7b", turns_summarised: 1 });
    expect(panto.events().filter((event) => event.type === "context_warning")).toMatchObject([
      { level: 0.55 },
    ]);
    panto.write(user("/compact"));
    panto.end();
    const run = await panto.exit;
    expect(run.code).toBe(0);
    const events = jsonLines(run.stdout);
    expect(events.find((event) => event.type === "compaction")).toMatchObject({
      prepared: true,
      summary: expect.stringContaining("PREPARED-SUMMARY"),
    });
    // The prepared summary was applied: no second summary request.
    const summaryRequests = server.requests.filter(
      (request) => ((request.body as { tools?: unknown[] }).tools ?? []).length === 0,
    );
    expect(summaryRequests).toHaveLength(1);
    expect(results(events).map((event) => [event.line, event.exit_code])).toEqual([
      [1, 0],
      [2, 0],
    ]);
  });

  describe("a compaction prepared ahead, beside clearing", () => {
    /**
     * Two turns, each reading one ~12k-token file, in a 40k window with prepare_compaction_at 0.5:
     * the second turn ends past 20k. Keeping one result, the clearing due before the next request
     * takes the first file's output out, back under the line, unless read is excluded from clearing.
     */
    async function twoReads(clearing: Record<string, unknown>, oneTurn = false) {
      const box = await makeSandbox();
      const server = await startFakeOpenAIChatServer({
        serverInfo: { kind: "llama.cpp", contextWindow: 40_000 },
        contextWindow: 40_000,
      });
      servers.push(server);
      await mkdir(join(box.project, ".panto"));
      const text = (name: string) =>
        Array.from({ length: 400 }, (_, line) => `${name} ${line} ${"lorem ipsum ".repeat(9)}`).join("\n");
      await writeFile(join(box.project, "a.txt"), text("a"));
      await writeFile(join(box.project, "b.txt"), text("b"));
      await writeFile(
        join(box.project, ".panto", "config.json"),
        JSON.stringify({
          model: "llamacpp/qwen2.5-7b",
          providers: { llamacpp: { base_url: server.url } },
          prepare_compaction_at: 0.5,
          clearing: { keep_recent: 1, trigger_tokens: 20_000, min_reclaim_tokens: 2_000, ...clearing },
          sandbox: "full",
        }),
      );
      const read = (id: string, path: string) => ({
        type: "tool-calls" as const,
        calls: [{ id, name: "read", arguments: { path } }],
      });
      const answers = oneTurn
        ? [read("call_a", "a.txt"), read("call_b", "b.txt"), { type: "text" as const, text: "Both read." }]
        : [
            read("call_a", "a.txt"),
            { type: "text" as const, text: "A read." },
            read("call_b", "b.txt"),
            { type: "text" as const, text: "B read." },
          ];
      server.enqueue(...answers, { type: "text", text: "PREPARED-SUMMARY" });
      const panto = spawnStream(box.project, box.env, ["--input-format", "stream-json", "--json"]);
      panto.write(user(oneTurn ? "read a.txt, then b.txt" : "read a.txt"));
      await panto.waitFor((event) => event.type === "result");
      if (!oneTurn) {
        panto.write(user("read b.txt"));
        await panto.waitFor((event) => event.type === "result" && event.line === 2);
      }
      const summaryRequests = () =>
        server.requests.filter(
          (request) =>
            request.path.endsWith("/chat/completions") &&
            ((request.body as { tools?: unknown[] }).tools ?? []).length === 0,
        );
      return { server, panto, summaryRequests };
    }

    it.each([
      {
        when: "when the clearing due next brings the context back under prepare_compaction_at",
        oneTurn: false,
      },
      {
        when: "either when both outputs came in the turn just ended: they are old by the next request",
        oneTurn: true,
      },
    ])("writes none $when", async ({ oneTurn }) => {
      const { server, panto, summaryRequests } = await twoReads({}, oneTurn);
      // The decision is made before the turn's result is reported; a summary started would be under way by now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(summaryRequests()).toHaveLength(0);
      server.enqueue({ type: "text", text: "Done." });
      panto.write(user("anything else?"));
      const cleared = await panto.waitFor((event) => event.type === "context_cleared");
      expect(cleared).toMatchObject({ ids: ["call_a"] });
      expect(cleared.tokens_after as number).toBeLessThan(20_000);
      await panto.waitFor((event) => event.type === "result" && event.line === (oneTurn ? 2 : 3));
      panto.end();
      const run = await panto.exit;
      expect(run.code, run.stderr).toBe(0);
      expect(jsonLines(run.stdout).filter((event) => event.type === "compaction_prepared")).toEqual([]);
      expect(summaryRequests()).toHaveLength(0);
    });

    it("writes one when the outputs past the line may not be cleared (read excluded)", async () => {
      const { panto, summaryRequests } = await twoReads({ exclude_tools: ["read"] });
      const prepared = await panto.waitFor((event) => event.type === "compaction_prepared");
      expect(prepared).toMatchObject({ model: "llamacpp/qwen2.5-7b" });
      expect(summaryRequests()).toHaveLength(1);
      panto.end();
      const run = await panto.exit;
      expect(run.code, run.stderr).toBe(0);
      expect(jsonLines(run.stdout).filter((event) => event.type === "context_cleared")).toEqual([]);
    });
  });

  describe("the command line", () => {
    it("refuses stream-json input without JSON output, exit 2", async () => {
      const box = await makeSandbox();
      const run = await runPanto(["--input-format", "stream-json", "-p", "-m", MODEL], {
        cwd: box.project,
        env: box.env,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--input-format stream-json answers with JSON events: add --json");
      expect(run.stdout).toBe("");
    });

    it("refuses a prompt on the command line with stream-json input: an error event, done, exit 2", async () => {
      const box = await makeSandbox();
      const run = await runPanto(
        ["--input-format", "stream-json", "--output-format", "stream-json", "hello"],
        {
          cwd: box.project,
          env: box.env,
        },
      );
      expect(run.code).toBe(2);
      const events = jsonLines(run.stdout);
      expect(events[0]).toMatchObject({ type: "error", code: "usage" });
      expect(String(events[0]?.message)).toContain("reads every prompt from stdin");
      expect(events[1]).toEqual({ type: "done", exit_code: 2 });
    });

    it("takes --input-format text (the default) and --output-format stream-json as --json", async () => {
      const server = await startFakeAnthropicServer({});
      servers.push(server);
      server.enqueue({ type: "text", text: "ONE-SHOT" });
      const box = await makeSandbox();
      const run = await runPanto(
        [
          "--input-format",
          "text",
          "--output-format",
          "stream-json",
          "-m",
          MODEL,
          "--sandbox",
          "full",
          "-p",
          "hi",
        ],
        { cwd: box.project, env: { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url } },
      );
      expect(run.code).toBe(0);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "ONE-SHOT" });
    });
  });
});
