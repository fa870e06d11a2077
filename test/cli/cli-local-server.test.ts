import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

/** A loopback port nothing listens on: one the system just handed out, closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A project whose model is served by a custom OpenAI-compatible provider at `baseURL`. */
async function projectFor(provider: string, baseURL: string) {
  const box = await makeSandbox();
  await mkdir(join(box.project, ".panto"));
  await writeFile(
    join(box.project, ".panto", "config.json"),
    JSON.stringify({ model: `${provider}/qwen3`, providers: { [provider]: { base_url: baseURL } } }),
  );
  // The default retries (four, from one second up): a refusal that were retried would emit retry events.
  const { PANTO_MAX_RETRIES: _retries, PANTO_RETRY_BASE_MS: _base, ...env } = box.env;
  return { box, env };
}

describe("a local server that is not running (built CLI, issue 42)", { timeout: 60_000 }, () => {
  it("fails at once on a refused 127.0.0.1 connection, without retries, naming the address and `ollama serve`", async () => {
    const port = await closedPort();
    const { box, env } = await projectFor("ollama", `http://127.0.0.1:${port}/v1`);
    const result = await runPanto(["--json", "-p", "hello"], { cwd: box.project, env });
    expect(result.code).not.toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.filter((event) => event.type === "retry")).toEqual([]);
    const error = events.find((event) => event.type === "error");
    expect(error).toMatchObject({ code: "network" });
    expect(String(error?.message)).toContain(
      `nothing is listening on http://127.0.0.1:${port}: is \`ollama serve\` running?`,
    );
    expect(String(error?.message)).not.toMatch(/try again shortly/);
  });

  it("says the same for localhost in print mode, with a hint to start the server instead of waiting", async () => {
    const port = await closedPort();
    const { box, env } = await projectFor("local", `http://localhost:${port}/v1`);
    const result = await runPanto(["-p", "hello"], { cwd: box.project, env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      `nothing is listening on http://localhost:${port}: is the local model server running?`,
    );
    expect(result.stderr).not.toMatch(/retry|try again shortly/i);
    expect(result.stderr).toMatch(/Start the server or check the provider's base URL/);
  });
});
