import { execFile } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeReply, FakeServer } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, PANTO_MAIN, runPanto, type Sandbox } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const TRACE_IMPORTS = fileURLToPath(new URL("./fixtures/trace-imports.mjs", import.meta.url));
const DIES_ON_CALL = fileURLToPath(new URL("./fixtures/mcp-dies-on-call.mjs", import.meta.url));
/** The published reference server, run by node from its installed entry (no npx, no network). */
const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);
const everything = { command: process.execPath, args: [EVERYTHING, "stdio"] };

let servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function setup(
  ...replies: FakeReply[]
): Promise<{ box: Sandbox; server: FakeServer; env: NodeJS.ProcessEnv }> {
  const box = await makeSandbox();
  const server = await startFakeAnthropicServer();
  server.enqueue(...replies);
  servers.push(server);
  return { box, server, env: { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url } };
}

async function writeMcpJson(box: Sandbox, servers: Record<string, unknown>): Promise<void> {
  await writeFile(join(box.project, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
}

async function writeProjectConfig(box: Sandbox, config: Record<string, unknown>): Promise<void> {
  await mkdir(join(box.project, ".panto"), { recursive: true });
  await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify(config));
}

type Body = {
  tools?: Array<{ name: string; input_schema?: unknown }>;
  messages: Array<{ role: string; content: unknown }>;
};
const body = (server: FakeServer, index: number): Body => server.requests[index]?.body as Body;

describe("MCP servers (built CLI, the reference server-everything over stdio)", { timeout: 90_000 }, () => {
  it("offers a server's tools as mcp__<server>__<tool> and runs a read-only one end to end", async () => {
    const { box, server, env } = await setup(
      {
        type: "tool-calls",
        calls: [{ id: "toolu_1", name: "mcp__everything__echo", arguments: { message: "hello mcp" } }],
      },
      { type: "text", text: "it echoed" },
    );
    await writeMcpJson(box, { everything });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "echo it"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const echo = body(server, 0).tools?.find((tool) => tool.name === "mcp__everything__echo");
    expect(echo?.input_schema).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    const events = jsonLines(result.stdout);
    expect(events).toContainEqual({
      type: "tool_result",
      tool_call_id: "toolu_1",
      name: "mcp__everything__echo",
      is_error: false,
      text: "Echo: hello mcp",
    });
    expect(JSON.stringify(body(server, 1).messages)).toContain("Echo: hello mcp");
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "it echoed" });
  });

  it("asks permission for a tool the server does not mark read-only (denied without --allow-tools)", async () => {
    const call = { id: "toolu_2", name: "mcp__everything__toggle-simulated-logging", arguments: {} };
    const { box, env } = await setup({ type: "tool-calls", calls: [call] }, { type: "text", text: "ok" });
    await writeProjectConfig(box, { mcp_servers: { everything } });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "toggle logging"], { cwd: box.project, env });
    const events = jsonLines(result.stdout);
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "warning",
        message: expect.stringContaining("denied mcp__everything__toggle-simulated-logging"),
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ type: "tool_result", tool_call_id: "toolu_2", is_error: true }),
    );
  });

  it("/mcp lists the servers with their state and tools", async () => {
    const { box, env } = await setup();
    await writeMcpJson(box, {
      everything,
      broken: { command: process.execPath, args: ["-e", "process.exit(1)"] },
    });
    const result = await runPanto(["-m", MODEL, "-p", "/mcp"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^everything: connected, \d+ tools\n {2}stdio: .*server-everything.* stdio\n/m,
    );
    expect(result.stdout).toContain("tools, called by the model as mcp__everything__<tool>:");
    expect(result.stdout).toMatch(/^ {4}echo +read-only {3}Echoes back the input/m);
    expect(result.stdout).toMatch(/^ {4}toggle-simulated-logging +asks first {2}Toggles simulated/m);
    expect(result.stdout).toMatch(/^broken: failed\n/m);
  });

  it("/mcp names the one config file that defined each server, user or project (issue 42)", async () => {
    const { box, env } = await setup();
    const quits = { command: process.execPath, args: ["-e", "process.exit(1)"] };
    await writeFile(join(box.home, "config.json"), JSON.stringify({ mcp_servers: { mine: quits } }));
    await writeProjectConfig(box, { mcp_servers: { theirs: quits } });
    await writeMcpJson(box, { shared: quits });
    const result = await runPanto(["-m", MODEL, "-p", "/mcp"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const sourceOf = (name: string) =>
      new RegExp(`^${name}: [^\\n]*\\n[^\\n]*\\n {2}from (.*)$`, "m").exec(result.stdout)?.[1];
    expect(sourceOf("mine")).toBe(join(box.home, "config.json"));
    expect(sourceOf("theirs")).toBe(join(box.project, ".panto", "config.json"));
    expect(sourceOf("shared")).toBe(join(box.project, ".mcp.json"));
    expect(result.stdout).not.toContain(" or ");
  });

  it("warns about a server that exits at once, naming it with its stderr, and goes on without it", async () => {
    const { box, server, env } = await setup({ type: "text", text: "still here" });
    const script = "process.stderr.write('boom: MCP_TOKEN is not set'); process.exit(3)";
    await writeProjectConfig(box, {
      mcp_servers: { broken: { command: process.execPath, args: ["-e", script] } },
    });
    const result = await runPanto(["-m", MODEL, "-p", "hello"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("still here\n");
    expect(result.stderr).toMatch(
      /warning: MCP server "broken" \(stdio: .*\) failed to start: .*boom: MCP_TOKEN is not set; continuing without it/,
    );
    expect(body(server, 0).tools?.some((tool) => tool.name.startsWith("mcp__"))).toBe(false);
  });

  it("never prints the token in a failing server's URL, headers or environment (redacted by name)", async () => {
    const { box, env } = await setup();
    const script = "process.stderr.write('cannot log in with tok-env-5b7d9f1a3c'); process.exit(3)";
    await writeProjectConfig(box, {
      mcp_servers: {
        remote: {
          url: "http://127.0.0.1:9/mcp?token=tok-query-2c4e6a8b0d&team=core",
          headers: { Authorization: "Bearer tok-header-9e1a3c5b7d" },
        },
        local: {
          command: process.execPath,
          args: ["-e", script],
          env: { SERVICE_TOKEN: "tok-env-5b7d9f1a3c" },
        },
      },
    });
    const result = await runPanto(["-m", MODEL, "-p", "/mcp"], { cwd: box.project, env });
    const printed = `${result.stdout}\n${result.stderr}`;
    expect(printed).toContain("team=core");
    expect(printed).toContain("[redacted mcp_servers.remote.url.query.token]");
    expect(printed).toContain("[redacted mcp_servers.local.env.SERVICE_TOKEN]");
    for (const token of ["tok-query-2c4e6a8b0d", "tok-header-9e1a3c5b7d", "tok-env-5b7d9f1a3c"])
      expect(printed).not.toContain(token);
  });

  it("gives an error result for a call to a server that died, and the session goes on", async () => {
    const { box, server, env } = await setup(
      { type: "tool-calls", calls: [{ id: "toolu_a", name: "mcp__dying__crash", arguments: {} }] },
      { type: "tool-calls", calls: [{ id: "toolu_b", name: "mcp__dying__crash", arguments: {} }] },
      { type: "text", text: "the server is gone" },
    );
    await writeMcpJson(box, { dying: { command: process.execPath, args: [DIES_ON_CALL] } });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "crash it"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const results = jsonLines(result.stdout).filter((event) => event.type === "tool_result");
    expect(results.map((event) => event.is_error)).toEqual([true, true]);
    expect(results[1]?.text).toContain('MCP server "dying" is not running');
    expect(result.stderr).toContain('MCP server "dying" stopped');
    expect(JSON.stringify(body(server, 2).messages)).toContain('MCP server \\"dying\\" is not running');
  });

  it("loads no MCP code when no server is configured", async () => {
    const { box, env } = await setup({ type: "text", text: "plain" });
    // Asynchronously: the fake server answers from this process's event loop.
    const running = promisify(execFile)(
      process.execPath,
      ["--import", TRACE_IMPORTS, PANTO_MAIN, "-m", MODEL, "-p", "hi"],
      { cwd: box.project, env, encoding: "utf8" },
    );
    // stdin is a pipe: panto reads what is piped beside -p to its end, so end it.
    running.child.stdin?.end();
    const result = await running;
    expect(result.stdout).toBe("plain\n");
    const imports = result.stderr.split("\n").filter((line) => line.startsWith("IMPORT "));
    expect(imports.some((line) => line.includes("/dist/runtime/start-run.js"))).toBe(true);
    expect(imports.filter((line) => /@modelcontextprotocol|\/dist\/mcp\/mcp-servers\.js/.test(line))).toEqual(
      [],
    );
  });
});
