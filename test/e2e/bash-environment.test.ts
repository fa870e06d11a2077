import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { makeSandbox, runPanto, type Sandbox } from "../cli/panto-process.js";
import { jsonEvents } from "./run-cli.js";

const KEY = "sk-ant-env-0f1e2d3c4b5a";
const GITHUB = "ghp_envtest_9a8b7c6d5e";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The model runs `env` through the bash tool, then answers; returns what `env` printed, as panto saw it. */
async function envThroughAgent(config: Record<string, unknown> | undefined): Promise<{
  toolText: string;
  sessionText: string;
  sentBack: string;
  sandbox: Sandbox;
}> {
  server = await startFakeAnthropicServer();
  server.enqueue(
    { type: "tool-calls", calls: [{ id: "call_env", name: "bash", arguments: { command: "env" } }] },
    { type: "text", text: "done" },
  );
  const sandbox = await makeSandbox();
  if (config !== undefined) {
    await mkdir(join(sandbox.project, ".panto"), { recursive: true });
    await writeFile(join(sandbox.project, ".panto", "config.json"), JSON.stringify(config));
  }
  const session = join(sandbox.home, "env.jsonl");
  const run = await runPanto(
    ["--json", "--allow-tools", "-m", "anthropic/claude-test", "--session", session, "-p", "show env"],
    {
      cwd: sandbox.project,
      env: {
        ...sandbox.env,
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: server.url,
        GITHUB_TOKEN: GITHUB,
        DEPLOY_PASSWORD: "hunter2-hunter2",
        COPY_OF_KEY: KEY,
        MY_SETTING: "visible-value",
      },
    },
  );
  expect(run.code).toBe(0);
  const result = jsonEvents(run.stdout).find((event) => event.type === "tool_result");
  expect(result?.is_error).toBe(false);
  return {
    toolText: String(result?.text),
    sessionText: await readFile(session, "utf8"),
    sentBack: JSON.stringify(server.requests[1]?.body),
    sandbox,
  };
}

describe("the environment of bash commands", () => {
  it("holds neither the provider key nor secret-looking variables, but keeps the rest", async () => {
    const { toolText, sessionText, sentBack } = await envThroughAgent(undefined);
    expect(toolText).toContain("MY_SETTING=visible-value");
    expect(toolText).toMatch(/^PATH=/m);
    for (const text of [toolText, sessionText, sentBack]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain("ANTHROPIC_API_KEY=");
      expect(text).not.toContain("GITHUB_TOKEN=");
      expect(text).not.toContain("DEPLOY_PASSWORD=");
      // A provider key copied under an innocent name is withheld too.
      expect(text).not.toContain("COPY_OF_KEY=");
    }
  });

  it("passes the variables named in bash_env_passthrough", async () => {
    const { toolText, sessionText } = await envThroughAgent({ bash_env_passthrough: ["GITHUB_TOKEN"] });
    expect(toolText).toContain(`GITHUB_TOKEN=${GITHUB}`);
    expect(sessionText).toContain(`GITHUB_TOKEN=${GITHUB}`);
    expect(toolText).not.toContain("DEPLOY_PASSWORD=");
    expect(toolText).not.toContain(KEY);
  });
});
