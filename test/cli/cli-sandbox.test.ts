import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sessionDirectory } from "../../src/session/index.js";
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

/** A project, an environment pointed at a fake Anthropic server, and that server's scripted bash calls. */
async function setup(...commands: Array<Record<string, unknown>>) {
  server = await startFakeAnthropicServer();
  server.enqueue(
    ...commands.map((args, index) => ({
      type: "tool-calls" as const,
      calls: [{ id: `call_${index}`, name: "bash", arguments: args }],
    })),
    { type: "text", text: "done" },
  );
  const box = await makeSandbox();
  const env = { ...box.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.url };
  return { box, env };
}

function toolResults(stdout: string): Array<Record<string, unknown>> {
  return jsonLines(stdout).filter((event) => event.type === "tool_result");
}

describe.skipIf(current?.unavailable !== undefined)(
  `the CLI's sandbox${current?.unavailable === undefined ? "" : ` (skipped: ${current.unavailable})`}`,
  () => {
    it("runs the model's commands sandboxed without a question in JSON mode, and says so in session_started", async () => {
      const outside = "outside-written.txt";
      const { box, env } = await setup({ command: `echo in > inside.txt; echo out > "$HOME/${outside}"` });
      const run = await runPanto(["-m", MODEL, "--json", "-p", "go"], { cwd: box.project, env });
      expect(run.code).toBe(0);
      const [started] = jsonLines(run.stdout);
      expect(started).toMatchObject({
        type: "session_started",
        mode: "ask",
        sandbox: { mode: "workspace-write", network: false, writable_roots: [box.project] },
      });
      expect(await readFile(join(box.project, "inside.txt"), "utf8")).toBe("in\n");
      expect(existsSync(join(box.root, outside))).toBe(false);
    });

    it("refuses an escape in print mode, even with --allow-tools, and runs it with --allow-unsandboxed", async () => {
      const escapeCall = {
        command: `echo out > "$HOME/escaped.txt"`,
        unsandboxed_reason: "writes to the home folder",
      };
      const first = await setup(escapeCall);
      const refused = await runPanto(["-m", MODEL, "--json", "--allow-tools", "-p", "go"], {
        cwd: first.box.project,
        env: first.env,
      });
      const [result] = toolResults(refused.stdout);
      expect(result).toMatchObject({ is_error: true });
      expect(String(result?.text)).toContain("--allow-unsandboxed");
      expect(existsSync(join(first.box.root, "escaped.txt"))).toBe(false);
      await server?.close();

      const second = await setup(escapeCall);
      const allowed = await runPanto(["-m", MODEL, "--json", "--allow-unsandboxed", "-p", "go"], {
        cwd: second.box.project,
        env: second.env,
      });
      expect(toolResults(allowed.stdout)[0]).toMatchObject({ is_error: false });
      expect(await readFile(join(second.box.root, "escaped.txt"), "utf8")).toBe("out\n");
    });

    it("keeps the project read-only with --sandbox read-only, and records the mode in the session", async () => {
      const { box, env } = await setup({ command: "echo x > inside.txt" });
      const session = join(box.root, "s.jsonl");
      const run = await runPanto(
        ["-m", MODEL, "--json", "--sandbox", "read-only", "--session", session, "-p", "go"],
        {
          cwd: box.project,
          env,
        },
      );
      expect(String(toolResults(run.stdout)[0]?.text)).toContain("Read-only file system");
      expect(existsSync(join(box.project, "inside.txt"))).toBe(false);
      const entries = jsonLines(await readFile(session, "utf8"));
      expect(entries.filter((entry) => entry.type === "sandbox")).toMatchObject([
        { type: "sandbox", mode: "read-only", network: false, writableRoots: [] },
      ]);
    });

    it("takes the network setting and extra writable folders from config", async () => {
      const { box, env } = await setup({ command: "true" });
      await mkdir(join(box.root, "scratch"));
      await mkdir(join(box.project, ".panto"));
      await writeFile(
        join(box.project, ".panto", "config.json"),
        JSON.stringify({ sandbox: { network: true, writable_roots: ["../scratch"] } }),
      );
      const run = await runPanto(["-m", MODEL, "--json", "-p", "go"], { cwd: box.project, env });
      expect(jsonLines(run.stdout)[0]).toMatchObject({
        sandbox: {
          mode: "workspace-write",
          network: true,
          writable_roots: [box.project, join(box.root, "scratch")],
        },
      });
    });

    it("answers panto sandbox --json with every rule holding, and names them in text", async () => {
      const box = await makeSandbox();
      const json = await runPanto(["sandbox", "--json"], { cwd: box.project, env: box.env });
      expect(json.code).toBe(0);
      const report = JSON.parse(json.stdout) as {
        ok: boolean;
        mode: string;
        checks: Array<{ id: string; ok: boolean }>;
      };
      expect(report).toMatchObject({ ok: true, mode: "workspace-write" });
      expect(report.checks.length).toBeGreaterThanOrEqual(9);
      const text = await runPanto(["sandbox"], { cwd: box.project, env: box.env });
      expect(text.code).toBe(0);
      expect(text.stdout).toContain("Sandbox: workspace-write, network off");
      expect(text.stdout).toMatch(/✓ .*credential/);
    });

    it("finishes its turn when the model's fork loop and large allocation hit the configured limits", async () => {
      const { box, env } = await setup(
        { command: "for i in $(seq 1 300); do sleep 20 & done; wait", timeout_ms: 5000 },
        { command: "set -o pipefail; head -c 900M /dev/zero | tail | wc -c" },
      );
      await mkdir(join(box.project, ".panto"), { recursive: true });
      await writeFile(
        join(box.project, ".panto", "config.json"),
        JSON.stringify({ sandbox: { max_processes: 30, max_memory_mb: 256 } }),
      );
      const run = await runPanto(["-m", MODEL, "--json", "-p", "stress it"], { cwd: box.project, env });
      expect(run.code).toBe(0);
      const [forks, allocation] = toolResults(run.stdout);
      expect(forks).toMatchObject({ is_error: true });
      expect(String(forks?.text)).toContain("sandbox.max_processes");
      expect(allocation).toMatchObject({ is_error: true });
      expect(String(allocation?.text)).toContain("sandbox.max_memory_mb");
      // Both results went back to the model, which answered: the turn ended normally.
      expect(server?.requests).toHaveLength(3);
      expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "done" });
    });
  },
);

describe("the CLI without bubblewrap", () => {
  it("exits 2 naming the cause, and runs with --sandbox full", async () => {
    const { box, env } = await setup({ command: "echo ran > ran.txt" });
    const noBwrap = { ...env, PATH: "/nonexistent" };
    const failed = await runPanto(["-m", MODEL, "-p", "go"], { cwd: box.project, env: noBwrap });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("bubblewrap (bwrap), which is not on PATH");
    expect(failed.stderr).toContain("--sandbox full");
    // The sandbox fails after the session file was reserved (made and locked, empty): it is gone again.
    expect(await readdir(sessionDirectory(box.home, box.project)).catch(() => [])).toEqual([]);
    const full = await runPanto(["-m", MODEL, "--sandbox", "full", "--allow-tools", "-p", "go"], {
      cwd: box.project,
      env: noBwrap,
    });
    expect(full.code).toBe(0);
    expect(await readFile(join(box.project, "ran.txt"), "utf8")).toBe("ran\n");
  });
});
