import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeReply, FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { makeSandbox, runPanto } from "../cli/panto-process.js";
import { jsonEvents } from "./run-cli.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** `panto -p` against a fake Anthropic server that always gives `reply`, with config `timeouts`. */
async function runAgainst(reply: FakeReply, timeouts: Record<string, number>, json = false) {
  server = await startFakeAnthropicServer({ responder: () => reply });
  const sandbox = await makeSandbox();
  await mkdir(join(sandbox.project, ".panto"), { recursive: true });
  await writeFile(join(sandbox.project, ".panto", "config.json"), JSON.stringify({ timeouts }));
  const run = await runPanto([...(json ? ["--json"] : []), "-m", "anthropic/claude-test", "-p", "hi"], {
    cwd: sandbox.project,
    env: { ...sandbox.env, ANTHROPIC_API_KEY: "sk-ant-deadline-0123", ANTHROPIC_BASE_URL: server.url },
  });
  return { run, endpoint: `127.0.0.1:${new URL(server.url).port}`, requests: server.requests.length };
}

describe("config timeouts reach the adapters", () => {
  it("reports a silent server on timeouts.first_byte_ms, retried once, with exit status 1", async () => {
    const { run, endpoint, requests } = await runAgainst({ type: "silent" }, { first_byte_ms: 300 });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error (network): anthropic: first-byte timeout: no response from ${endpoint} within 300 ms (timeouts.first_byte_ms)`,
    );
    // One retry (the server may not have recorded a request the client gave up on mid-send).
    expect(run.stderr.match(/retrying in .*first-byte timeout/g)).toHaveLength(1);
    expect(requests).toBeGreaterThanOrEqual(1);
  });

  it("reports a ping-only stream on timeouts.idle_ms as a JSON error event", async () => {
    const ping: FakeReply = {
      type: "keepalive",
      text: 'event: ping\ndata: {"type": "ping"}\n\n',
      intervalMs: 20,
    };
    const { run, endpoint } = await runAgainst(ping, { idle_ms: 300 }, true);
    expect(run.code).toBe(1);
    const error = jsonEvents(run.stdout).find((event) => event.type === "error");
    expect(error).toEqual({
      type: "error",
      code: "network",
      message: `anthropic: idle timeout: no content from ${endpoint} for 300 ms (timeouts.idle_ms)`,
      ...(error?.hint === undefined ? {} : { hint: error.hint }),
    });
  });
});
