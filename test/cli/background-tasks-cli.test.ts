import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { sandboxUsers } from "../sandbox/sandbox-users.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-background";
const [current] = sandboxUsers();
const SANDBOXED = current?.unavailable === undefined;

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Call = { name: string; arguments: Record<string, unknown> };

/** A project whose config sets `sandbox`, an environment pointed at a fake Anthropic server scripted with `calls` (one per request), then "done". */
async function setup(sandbox: Record<string, unknown> | string, calls: Call[]) {
  server = await startFakeAnthropicServer();
  server.enqueue(
    ...calls.map((call, index) => ({
      type: "tool-calls" as const,
      calls: [{ id: `call_${index}`, ...call }],
    })),
    { type: "text", text: "done" },
  );
  const box = await makeSandbox();
  await mkdir(join(box.project, ".panto"));
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ model: MODEL, sandbox }));
  const env = { ...box.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.url };
  return { box, env, session: join(box.root, "session.jsonl") };
}

/** Pids of the processes whose command line holds `marker`, this test's own excepted. */
function processesWith(marker: string): number[] {
  return readdirSync("/proc").flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const command = readFileSync(`/proc/${name}/cmdline`, "utf8");
      return command.includes(marker) && Number(name) !== process.pid ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

/** A node HTTP server on a free port of 127.0.0.1 that writes the port to `port.txt` and logs each request. */
const SERVER = [
  "const http = require('http'); const fs = require('fs');",
  "const s = http.createServer((q, r) => { console.log('got ' + q.url); r.end('hello from ' + q.url); });",
  "s.listen(0, '127.0.0.1', () => { console.log('listening'); fs.writeFileSync('port.txt', String(s.address().port)); });",
].join(" ");

/** A foreground command that waits for port.txt, then GETs `path` from the server and prints the answer. */
function fetchCommand(path: string): string {
  const script = [
    "const fs = require('fs');",
    "const wait = () => fs.existsSync('port.txt') ? Promise.resolve() : new Promise((r) => setTimeout(r, 50)).then(wait);",
    `wait().then(() => fetch('http://127.0.0.1:' + fs.readFileSync('port.txt', 'utf8') + '${path}'))`,
    ".then((r) => r.text()).then((t) => console.log('answer: ' + t), (e) => { console.log('unreachable: ' + e.cause?.code); process.exit(7); });",
  ].join(" ");
  return `node -e "${script}"`;
}

function toolResults(stdout: string): Array<Record<string, unknown>> {
  return jsonLines(stdout).filter((event) => event.type === "tool_result");
}

const modes: Array<{ title: string; sandbox: Record<string, unknown> | string; skip: boolean }> = [
  {
    title: "under bubblewrap (workspace-write, network off: the commands share one loopback)",
    sandbox: { mode: "workspace-write", network: false },
    skip: !SANDBOXED,
  },
  { title: "without a sandbox (--sandbox full)", sandbox: "full", skip: false },
];

describe.each(modes)("background commands $title", ({ sandbox, skip }) => {
  it.skipIf(skip)(
    "serves a later foreground command, is read in two parts, is killed by kill_task, and leaves its log in the session folder",
    async () => {
      const marker = `panto-bg-${randomUUID()}`;
      const { box, env, session } = await setup(sandbox, [
        { name: "bash", arguments: { command: `node -e "${SERVER}" ${marker}`, run_in_background: true } },
        { name: "bash", arguments: { command: fetchCommand("/first") } },
        { name: "bash_output", arguments: { id: "bg1" } },
        { name: "bash", arguments: { command: fetchCommand("/second") } },
        { name: "bash_output", arguments: { id: "bg1", filter: "second" } },
        { name: "kill_task", arguments: { id: "bg1" } },
        { name: "bash", arguments: { command: fetchCommand("/third") } },
      ]);
      const run = await runPanto(["--json", "--allow-tools", "--session", session, "-p", "serve"], {
        cwd: box.project,
        env,
      });
      expect(run.stderr).not.toContain("Error");
      expect(run.code).toBe(0);
      const results = toolResults(run.stdout).map((event) => String(event.text));
      expect(results[0]).toContain("Started background task bg1");
      expect(results[1]).toContain("answer: hello from /first");
      expect(results[2]).toContain("listening");
      expect(results[2]).toContain("got /first");
      expect(results[2]).toContain("Task bg1");
      expect(results[2]).toContain("running for");
      expect(results[3]).toContain("answer: hello from /second");
      // The second read holds only what came since the first, filtered.
      expect(results[4]).toContain("got /second");
      expect(results[4]).not.toContain("listening");
      expect(results[4]).not.toContain("got /first");
      expect(results[5]).toContain("killed by kill_task");
      expect(results[6]).toContain("unreachable: ECONNREFUSED");
      expect(processesWith(marker)).toEqual([]);
      const events = jsonLines(run.stdout);
      expect(events.find((event) => event.type === "background_task_started")).toMatchObject({
        id: "bg1",
        tool_call_id: "call_0",
      });
      expect(events.find((event) => event.type === "background_task_exited")).toMatchObject({
        id: "bg1",
        ending: "killed",
        killed_by: "kill_task",
      });
      const log = await readFile(`${session.slice(0, -".jsonl".length)}.tasks/bg1.log`, "utf8");
      expect(log).toContain("listening");
      expect(log).toContain("got /first");
      expect(log).toContain("got /second");
    },
    60_000,
  );

  it.skipIf(skip)(
    "tells the model of a task that ended at its next request, once, and records that line in the session",
    async () => {
      const { box, env, session } = await setup(sandbox, [
        { name: "bash", arguments: { command: "echo twelve bytes; exit 3", run_in_background: true } },
        { name: "bash", arguments: { command: "sleep 1" } },
        { name: "bash", arguments: { command: "true" } },
      ]);
      const run = await runPanto(["--json", "--allow-tools", "--session", session, "-p", "go"], {
        cwd: box.project,
        env,
      });
      expect(run.code).toBe(0);
      const note = "[panto] Background task bg1 ended: exit code 3, 13 bytes of output";
      const bodies = (server as FakeServer).requests.map((request) => JSON.stringify(request.body));
      expect(bodies[2]).toContain(note);
      // Told once: the request after carries it only as part of the history already sent.
      expect(bodies[3]?.split(note).length).toBe(2);
      const recorded = await readFile(session, "utf8");
      expect(recorded).toContain(note);
      const exited = jsonLines(run.stdout).find((event) => event.type === "background_task_exited");
      expect(exited).toMatchObject({ id: "bg1", ending: "exited", exit_code: 3, output_bytes: 13 });
    },
    60_000,
  );

  it.skipIf(skip)(
    "stops a task still running when panto exits normally",
    async () => {
      const marker = `panto-bg-${randomUUID()}`;
      const { box, env, session } = await setup(sandbox, [
        {
          name: "bash",
          arguments: { command: `node -e "setInterval(() => {}, 1000)" ${marker}`, run_in_background: true },
        },
        { name: "bash", arguments: { command: "sleep 0.5" } },
      ]);
      const run = await runPanto(["--json", "--allow-tools", "--session", session, "-p", "go"], {
        cwd: box.project,
        env,
      });
      expect(run.code).toBe(0);
      expect(toolResults(run.stdout)[0]?.text).toContain("Started background task bg1");
      expect(processesWith(marker)).toEqual([]);
      const events = jsonLines(run.stdout);
      const exited = events.find((event) => event.type === "background_task_exited");
      expect(exited).toMatchObject({ id: "bg1", ending: "killed", killed_by: "session-end" });
      // JSON mode still ends with `done`: the tasks stop before it.
      expect(events.at(-1)?.type).toBe("done");
      expect(existsSync(`${session.slice(0, -".jsonl".length)}.tasks/bg1.log`)).toBe(true);
    },
    60_000,
  );

  it.skipIf(skip)(
    "leaves no task behind when panto is killed with SIGKILL",
    async () => {
      const marker = `panto-bg-${randomUUID()}`;
      const { box, env, session } = await setup(sandbox, [
        {
          name: "bash",
          arguments: {
            command: `node -e "console.log('up'); setInterval(() => {}, 1000)" ${marker}`,
            run_in_background: true,
          },
        },
        { name: "bash", arguments: { command: "sleep 60" } },
      ]);
      let seen = false;
      const log = `${session.slice(0, -".jsonl".length)}.tasks/bg1.log`;
      const run = await runPanto(["--json", "--allow-tools", "--session", session, "-p", "go"], {
        cwd: box.project,
        env,
        onSpawn: (child) => {
          // Killed once the task runs and has printed: what it printed must survive the crash.
          const printed = () => existsSync(log) && readFileSync(log, "utf8").includes("up");
          void waitFor(() => processesWith(marker).length > 0 && printed(), 20_000).then((found) => {
            seen = found;
            child.kill("SIGKILL");
          });
        },
      });
      expect(run.signal).toBe("SIGKILL");
      expect(seen).toBe(true);
      expect(await waitFor(() => processesWith(marker).length === 0, 5000)).toBe(true);
      // Its output was written by the task itself, so the crash lost none of it.
      expect(readFileSync(log, "utf8")).toBe("up\n");
    },
    60_000,
  );
});

describe.skipIf(!SANDBOXED)("the loopback background commands share with the network off", () => {
  it("is the sandbox's own: a server in it answers a later command there, never the host", async () => {
    const { box, env, session } = await setup({ mode: "workspace-write", network: false }, [
      { name: "bash", arguments: { command: `node -e "${SERVER}"`, run_in_background: true } },
      { name: "bash", arguments: { command: `${fetchCommand("/inside")} && sleep 2` } },
    ]);
    let fromHost = "";
    const portFile = join(box.project, "port.txt");
    const run = await runPanto(["--json", "--allow-tools", "--session", session, "-p", "go"], {
      cwd: box.project,
      env,
      onSpawn: () => {
        void waitFor(() => existsSync(portFile) && readFileSync(portFile, "utf8") !== "", 20_000).then(() =>
          fetch(`http://127.0.0.1:${readFileSync(portFile, "utf8")}/host`).then(
            () => {
              fromHost = "answered";
            },
            (error: { cause?: { code?: string } }) => {
              fromHost = error.cause?.code ?? "failed";
            },
          ),
        );
      },
    });
    expect(run.code).toBe(0);
    expect(String(toolResults(run.stdout)[1]?.text)).toContain("answer: hello from /inside");
    expect(fromHost).toBe("ECONNREFUSED");
  }, 60_000);
});

describe("/tasks", () => {
  it("says there are none in a run that started none", async () => {
    const box = await makeSandbox();
    const run = await runPanto(["-m", MODEL, "-p", "/tasks"], {
      cwd: box.project,
      env: { ...box.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("No background tasks in this session");
  });
});
