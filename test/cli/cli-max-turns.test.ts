import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
let servers: FakeServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** A model that never stops: every answer lists the folder again. */
async function loopingModel(): Promise<{ project: string; env: NodeJS.ProcessEnv; server: FakeServer }> {
  const box = await makeSandbox();
  const server = await startFakeAnthropicServer({
    responder: (_request, index) => ({
      type: "tool-calls",
      text: `looking again (${index + 1})`,
      calls: [{ id: `toolu_${index}`, name: "ls", arguments: { path: "." } }],
    }),
  });
  servers.push(server);
  return {
    project: box.project,
    server,
    env: { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
  };
}

describe("--max-turns (built CLI against a model that keeps calling tools)", { timeout: 60_000 }, () => {
  it("stops a JSON run after N model requests with an error event max_turns and exit status 3", async () => {
    const { project, env, server } = await loopingModel();
    const result = await runPanto(["-m", MODEL, "--json", "--max-turns", "2", "-p", "tidy up"], {
      cwd: project,
      env,
    });
    expect(result.code).toBe(3);
    expect(server.requests).toHaveLength(2);
    const events = jsonLines(result.stdout);
    expect(events.filter((event) => event.type === "assistant_message")).toHaveLength(2);
    // The second answer's tools ran, and their results are in the session for a resume.
    expect(events.filter((event) => event.type === "tool_result")).toHaveLength(2);
    expect(events.at(-2)).toMatchObject({
      type: "error",
      code: "max_turns",
      message: "stopped after 2 model requests (--max-turns 2); the model had not finished",
    });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 3 });
  });

  it("says so on stderr in print mode, prints no answer, and a resume carries on from the kept work", async () => {
    const { project, env, server } = await loopingModel();
    const result = await runPanto(["-m", MODEL, "--max-turns", "1", "-p", "tidy up"], { cwd: project, env });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("error (max_turns): stopped after 1 model request (--max-turns 1)");
    const id = /panto -r ([0-9a-f]{8})/.exec(result.stderr)?.[1] ?? "";
    server.enqueue({ type: "text", text: "all tidy" });
    const resumed = await runPanto(["-m", MODEL, "-r", id, "-p", "go on"], { cwd: project, env });
    expect(resumed.stdout).toBe("all tidy\n");
    const messages = JSON.stringify(
      (server.requests.at(-1)?.body as { messages?: unknown } | undefined)?.messages,
    );
    expect(messages).toContain("toolu_0");
    expect(messages).toContain("tidy up");
  });

  it("is a usage error unless N is a whole number above 0", async () => {
    const box = await makeSandbox();
    for (const bad of ["0", "-1", "2.5", "many"]) {
      const result = await runPanto(["--max-turns", bad, "-p", "hi"], { cwd: box.project, env: box.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--max-turns needs a whole number of model requests above 0");
    }
  });
});
