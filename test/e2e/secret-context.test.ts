import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { makeSandbox, runPanto } from "../cli/panto-process.js";

const KEY = "sk-ant-context-4f8b2d6e1a3c";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A key that reaches the conversation (a tool reads a file holding it, the model repeats it) is
 * redacted in the session file and so, the same way, in the context panto keeps in memory: the
 * next request of the same run never sends it back to the provider.
 */
describe("a known key in the conversation", () => {
  it("is redacted in the requests that follow, not only in the session file", async () => {
    server = await startFakeAnthropicServer();
    server.enqueue(
      {
        type: "tool-calls",
        text: `Your key is ${KEY}.`,
        calls: [{ name: "read", arguments: { path: "notes.txt" } }],
      },
      { type: "text", text: "done" },
    );
    const sandbox = await makeSandbox();
    await writeFile(join(sandbox.project, "notes.txt"), `ANTHROPIC_API_KEY=${KEY}\n`);
    const session = join(sandbox.home, "context-session.jsonl");
    const env = { ...sandbox.env, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: server.url };
    const result = await runPanto(
      ["-m", "anthropic/claude-test", "--session", session, "-p", "read notes.txt"],
      {
        cwd: sandbox.project,
        env,
      },
    );
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(2);
    const second = JSON.stringify(server.requests[1]?.body);
    // The tool result and the model's own words both came back, redacted.
    expect(second).toContain("ANTHROPIC_API_KEY=[redacted ANTHROPIC_API_KEY]");
    expect(second).toContain("Your key is [redacted ANTHROPIC_API_KEY].");
    expect(second).not.toContain(KEY);
  });
});
