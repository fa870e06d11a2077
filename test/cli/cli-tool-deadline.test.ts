import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { makeSandbox, runPanto } from "./panto-process.js";

const EVERYTHING = fileURLToPath(
  new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
);

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = { messages: Array<{ role: string; content: unknown }> };

describe("config tool_deadline_ms", () => {
  it("abandons a tool call that runs past the configured deadline, and the model is told", {
    timeout: 60_000,
  }, async () => {
    server = await startFakeAnthropicServer();
    const tool = "mcp__everything__trigger-long-running-operation";
    server.enqueue(
      { type: "tool-calls", calls: [{ name: tool, arguments: { duration: 30, steps: 3 } }] },
      { type: "text", text: "moving on" },
    );
    const sandbox = await makeSandbox();
    await mkdir(join(sandbox.project, ".panto"), { recursive: true });
    const config = {
      tool_deadline_ms: 1500,
      mcp_servers: { everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } },
    };
    await writeFile(join(sandbox.project, ".panto", "config.json"), JSON.stringify(config));
    const env = { ...sandbox.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const result = await runPanto(["-m", "anthropic/claude-test", "-p", "run the long operation"], {
      cwd: sandbox.project,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("moving on\n");
    const second = JSON.stringify((server.requests[1]?.body as Body | undefined)?.messages);
    expect(second).toContain(`${tool} did not finish within 1500 ms and was abandoned`);
  });

  it("is a positive number of milliseconds, else a config error naming the key", async () => {
    const sandbox = await makeSandbox();
    await mkdir(join(sandbox.project, ".panto"), { recursive: true });
    await writeFile(join(sandbox.project, ".panto", "config.json"), JSON.stringify({ tool_deadline_ms: 0 }));
    const result = await runPanto(["-p", "hi"], { cwd: sandbox.project, env: sandbox.env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"tool_deadline_ms" must be a positive integer (milliseconds) (got 0)');
  });
});
