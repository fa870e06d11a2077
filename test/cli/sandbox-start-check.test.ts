import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { sandboxUsers } from "../sandbox/sandbox-users.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sandbox";
const [current] = sandboxUsers();

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A project whose PATH finds a `bwrap` of the test's own first: it writes each invocation's
 * arguments to a log, then either runs the real bubblewrap (`pass`) or fails as a machine without
 * user namespaces does (`refuse`). So the test sees every spawn of the launcher.
 */
async function setup(bwrap: "pass" | "refuse", ...replies: Parameters<FakeServer["enqueue"]>) {
  server = await startFakeAnthropicServer();
  server.enqueue(...replies);
  const box = await makeSandbox();
  const bin = join(box.root, "fake-bin");
  const log = join(box.root, "bwrap.log");
  await mkdir(bin);
  const body =
    bwrap === "pass" ? 'exec bwrap "$@"' : 'echo "bwrap: setting up uid map: Permission denied" >&2\nexit 1';
  // The real bwrap is found on the PATH without the fake folder.
  await writeFile(join(bin, "bwrap"), `#!/bin/sh\necho "$*" >> "${log}"\nPATH="${box.env.PATH}"\n${body}\n`);
  await chmod(join(bin, "bwrap"), 0o755);
  const env = {
    ...box.env,
    PATH: `${bin}:${box.env.PATH}`,
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url,
  };
  const invocations = async (): Promise<string[]> =>
    existsSync(log) ? (await readFile(log, "utf8")).split("\n").filter((line) => line !== "") : [];
  return { box, env, invocations };
}

function bashCall(command: string) {
  return { type: "tool-calls" as const, calls: [{ id: "call_0", name: "bash", arguments: { command } }] };
}

describe("the sandbox's start check", () => {
  it("is never run by a run that runs no command: bwrap is not spawned at all", async () => {
    const { box, env, invocations } = await setup("refuse", { type: "text", text: "hello" });
    const run = await runPanto(["-m", MODEL, "-p", "hi"], { cwd: box.project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("hello\n");
    expect(await invocations()).toEqual([]);
  });

  it("fails the first command, not the run, on a machine where the sandbox cannot start: the command does not run and the model is told why", async () => {
    const { box, env, invocations } = await setup("refuse", bashCall("echo ran > ran.txt"), {
      type: "text",
      text: "done",
    });
    const run = await runPanto(["-m", MODEL, "--json", "-p", "go"], { cwd: box.project, env });
    expect(run.code, run.stderr).toBe(0);
    const result = jsonLines(run.stdout).find((event) => event.type === "tool_result");
    expect(result).toMatchObject({ is_error: true });
    expect(String(result?.text)).toContain(
      "the sandbox could not start (", // the launcher's path follows
    );
    expect(String(result?.text)).toContain("setting up uid map: Permission denied");
    expect(String(result?.text)).toContain("--sandbox full");
    expect(existsSync(join(box.project, "ran.txt"))).toBe(false);
    // The start check alone was spawned; the command never was.
    expect(await invocations()).toHaveLength(1);
  });

  it.skipIf(current?.unavailable !== undefined)(
    "runs once, before the first command, and not again for the next",
    async () => {
      const { box, env, invocations } = await setup(
        "pass",
        bashCall("echo one > one.txt"),
        { type: "tool-calls", calls: [{ id: "call_1", name: "bash", arguments: { command: "echo two" } }] },
        { type: "text", text: "done" },
      );
      const run = await runPanto(["-m", MODEL, "--json", "-p", "go"], { cwd: box.project, env });
      expect(run.code, run.stderr).toBe(0);
      expect(await readFile(join(box.project, "one.txt"), "utf8")).toBe("one\n");
      const spawned = await invocations();
      expect(spawned).toHaveLength(3);
      // Each runs under bash, after the command limits' ulimit calls where limits apply; the command
      // is the last argument either way.
      const command = (text: string) => new RegExp(` -- /bin/bash -c (ulimit [^;]*; )*${text}$`);
      expect(spawned[0]).toMatch(command("exit 0"));
      expect(spawned[1]).toMatch(command("echo one > one.txt"));
      expect(spawned[2]).toMatch(command("echo two"));
    },
  );
});
