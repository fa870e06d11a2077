import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI_PATH, cliEnv, tempProject } from "../e2e/run-cli.js";
import { bundledModules as modulesInFiles, packageOf } from "../package/bundled-modules.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** The installed command (the bundle), as an editor starts it. */
const BIN = join(root, "dist", "bin", "panto.cjs");
const TRACE_IMPORTS = fileURLToPath(new URL("../cli/fixtures/trace-imports.mjs", import.meta.url));

interface RawAcp {
  /** stdout and stderr in the order written (both go to one pipe). */
  lines: string[];
  /** Resolves with the index in `lines` of the first line that parses as a JSON-RPC message `test` accepts. */
  waitForMessage(test: (message: Record<string, unknown>) => boolean): Promise<number>;
  write(message: unknown): void;
  end(): Promise<number | null>;
}

/**
 * `panto acp` started through a shell that sends its stderr into its stdout, so the import trace
 * (written to stderr as each module is resolved) and the protocol lines come in the order they
 * were written: what was loaded before the answer is every IMPORT line above it.
 */
async function startRaw(command: string[]): Promise<RawAcp> {
  const { home, project } = await tempProject();
  const env = cliEnv(home, { ANTHROPIC_API_KEY: "test-key" });
  const quoted = command.map((part) => `'${part}'`).join(" ");
  const child = spawn("/bin/sh", ["-c", `exec ${quoted} 2>&1`], { cwd: project, env });
  const lines: string[] = [];
  let pending = "";
  let waiters: Array<() => void> = [];
  child.stdout.on("data", (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split("\n");
    pending = parts.pop() ?? "";
    lines.push(...parts);
    for (const wake of waiters.splice(0)) wake();
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const find = (test: (message: Record<string, unknown>) => boolean): number =>
    lines.findIndex((line) => {
      if (!line.startsWith("{")) return false;
      try {
        return test(JSON.parse(line) as Record<string, unknown>);
      } catch {
        return false;
      }
    });
  return {
    lines,
    async waitForMessage(test) {
      for (;;) {
        const index = find(test);
        if (index >= 0) return index;
        if (child.exitCode !== null) throw new Error(`panto acp exited: ${lines.join("\n")}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 1000).unref();
        });
      }
    },
    write(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    end() {
      child.stdin.end();
      waiters = [];
      return exited;
    },
  };
}

const INITIALIZE = { protocolVersion: 1, clientCapabilities: {} };

/** The npm packages and source modules inside the bundle's files named by IMPORT lines. */
function bundledModules(importLines: readonly string[]): Set<string> {
  const files = importLines
    .map((line) => line.slice("IMPORT ".length))
    .filter((url) => url.startsWith("file://"))
    .map((url) => fileURLToPath(url))
    .filter((file) => file.startsWith(join(root, "dist", "bin")));
  return new Set(modulesInFiles(files).map((module) => packageOf(module) ?? module));
}

describe("panto acp answers the first initialize before loading the rest", { timeout: 60_000 }, () => {
  it("has loaded neither the ACP SDK, nor zod, nor the runtime, nor (for a bare `panto acp`) the argument parser when its answer is written; what follows is served", async () => {
    const acp = await startRaw([process.execPath, "--import", TRACE_IMPORTS, BIN, "acp"]);
    acp.write({ jsonrpc: "2.0", id: 0, method: "initialize", params: INITIALIZE });
    const answered = await acp.waitForMessage((message) => message.id === 0);
    const before = bundledModules(acp.lines.slice(0, answered).filter((line) => line.startsWith("IMPORT ")));
    expect(before.has("src/frontends/acp/early-initialize.ts"), [...before].join(", ")).toBe(true);
    for (const late of [
      "node_modules/@agentclientprotocol/sdk",
      "node_modules/zod",
      "node_modules/commander",
      "src/frontends/acp/acp-agent.ts",
      "src/runtime/start-run.ts",
    ])
      expect(before.has(late), `${late} was loaded before the initialize answer`).toBe(false);
    expect(JSON.parse(acp.lines[answered] ?? "")).toMatchObject({ result: { protocolVersion: 1 } });
    // The rest loads after the answer, and what the client sends next is served by it.
    acp.write({ jsonrpc: "2.0", id: 1, method: "session/list", params: {} });
    const listed = await acp.waitForMessage((message) => message.id === 1);
    expect(JSON.parse(acp.lines[listed] ?? "")).toMatchObject({ result: { sessions: [] } });
    const after = bundledModules(acp.lines.filter((line) => line.startsWith("IMPORT ")));
    expect(after.has("node_modules/@agentclientprotocol/sdk")).toBe(true);
    expect(await acp.end()).toBe(0);
  });

  it("answers exactly as the SDK's app answers a repeated initialize, with the client's id", async () => {
    const acp = await startRaw([process.execPath, CLI_PATH, "acp"]);
    acp.write({ jsonrpc: "2.0", id: "first", method: "initialize", params: INITIALIZE });
    acp.write({ jsonrpc: "2.0", id: 7, method: "initialize", params: INITIALIZE });
    const early = acp.lines[await acp.waitForMessage((message) => message.id === "first")] ?? "";
    const app = acp.lines[await acp.waitForMessage((message) => message.id === 7)] ?? "";
    expect(early.replace('"id":"first"', '"id":7')).toBe(app);
    expect(await acp.end()).toBe(0);
  });

  it("leaves any other first message to the SDK, with the errors it gave before, and still initializes after", async () => {
    const acp = await startRaw([process.execPath, CLI_PATH, "acp"]);
    acp.write({ jsonrpc: "2.0", id: 1, method: "session/list", params: {} });
    acp.write({ jsonrpc: "2.0", id: 2, method: "initialize", params: {} });
    const refused = JSON.parse(acp.lines[await acp.waitForMessage((message) => message.id === 1)] ?? "");
    expect(refused.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining("must be initialized before 'session/list'"),
    });
    const invalid = JSON.parse(acp.lines[await acp.waitForMessage((message) => message.id === 2)] ?? "");
    expect(invalid.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("initialize needs params with a numeric protocolVersion"),
    });
    acp.write({ jsonrpc: "2.0", id: 3, method: "initialize", params: INITIALIZE });
    const answered = JSON.parse(acp.lines[await acp.waitForMessage((message) => message.id === 3)] ?? "");
    expect(answered.result).toMatchObject({ protocolVersion: 1, agentInfo: { name: "panto" } });
    expect(await acp.end()).toBe(0);
  });
});
