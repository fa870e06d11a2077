import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { sandboxUsers } from "../sandbox/sandbox-users.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

// Plan mode (issue 38 item 5) through the built CLI against the fake Anthropic server: what the
// model may and may not do in it, what leaving it restores, and that the tool list the provider
// receives stays byte for byte the same across the switch.

const MODEL = "anthropic/claude-plan";
const [current] = sandboxUsers();

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args });

/** A project that is a real git repository holding `notes.txt`, and an environment pointed at the fake server. */
async function project() {
  server = await startFakeAnthropicServer();
  const box = await makeSandbox();
  execFileSync("git", ["init", "-q", box.project]);
  await writeFile(join(box.project, "notes.txt"), "first line\nneedle here\n");
  const env = { ...box.env, ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.url };
  return { box, env, server };
}

function toolResults(stdout: string): Map<string, { is_error: boolean; text: string }> {
  const results = jsonLines(stdout).filter((event) => event.type === "tool_result");
  return new Map(
    results.map((event) => [
      String(event.tool_call_id),
      { is_error: event.is_error === true, text: String(event.text) },
    ]),
  );
}

/** The text of an Anthropic request's system prompt. */
function systemOf(body: unknown): string {
  const system = (body as { system?: Array<{ text: string }> }).system ?? [];
  return system.map((block) => block.text).join("");
}

describe.skipIf(current?.unavailable !== undefined)(
  `panto -p --plan${current?.unavailable === undefined ? "" : ` (skipped: ${current.unavailable})`}`,
  () => {
    it("refuses write, edit and a changing command naming plan mode, runs read, grep and git status, and ends with the plan", async () => {
      const { box, env, server } = await project();
      server.enqueue(
        {
          type: "tool-calls",
          calls: [
            call("w", "write", { path: "notes.txt", content: "replaced\n" }),
            call("e", "edit", { path: "notes.txt", old_string: "first", new_string: "changed" }),
            call("b", "bash", { command: "echo more >> notes.txt" }),
            call("r", "read", { path: "notes.txt" }),
            call("g", "grep", { pattern: "needle" }),
            call("s", "bash", { command: "git status" }),
          ],
        },
        { type: "text", text: "PLAN: 1. edit notes.txt 2. run the tests" },
      );
      const run = await runPanto(["-m", MODEL, "--plan", "--json", "-p", "change notes.txt"], {
        cwd: box.project,
        env,
      });
      expect(run.code).toBe(0);
      const results = toolResults(run.stdout);
      for (const id of ["w", "e", "b"]) {
        expect(results.get(id)?.is_error, id).toBe(true);
        expect(results.get(id)?.text, id).toContain("plan mode");
      }
      expect(results.get("w")?.text).toContain("/plan off");
      expect(await readFile(join(box.project, "notes.txt"), "utf8")).toBe("first line\nneedle here\n");
      expect(results.get("r")).toMatchObject({ is_error: false });
      expect(results.get("r")?.text).toContain("needle here");
      expect(results.get("g")).toMatchObject({ is_error: false });
      expect(results.get("g")?.text).toContain("notes.txt");
      expect(results.get("s")).toMatchObject({ is_error: false });
      expect(results.get("s")?.text).toMatch(/On branch|No commits yet/);
      const done = jsonLines(run.stdout).at(-1);
      expect(done).toMatchObject({
        type: "done",
        exit_code: 0,
        text: "PLAN: 1. edit notes.txt 2. run the tests",
      });
      // The system prompt said so; the tool list is the one every run sends.
      const system = systemOf(server.requests[0]?.body);
      expect(system).toContain("Plan mode is on");
    });
  },
);

describe("plan mode across a switch (stream-json, --sandbox full)", () => {
  it("keeps the tools byte for byte, changes only the prompt's mode section, and /plan off restores the mode before it", async () => {
    const { box, env, server } = await project();
    server.enqueue(
      {
        type: "tool-calls",
        calls: [
          call("s", "bash", { command: "git status" }),
          call("t", "bash", { command: "touch made.txt" }),
          call("l", "bash", { command: "ls -la | grep notes" }),
        ],
      },
      { type: "text", text: "PLAN: make made.txt" },
      { type: "tool-calls", calls: [call("w", "write", { path: "made.txt", content: "made\n" })] },
      { type: "text", text: "done" },
    );
    const user = (text: string) =>
      `${JSON.stringify({ type: "user", message: { role: "user", content: text } })}\n`;
    const run = await runPanto(
      [
        "-m",
        MODEL,
        "--plan",
        "--allow-tools",
        "--sandbox",
        "full",
        "--input-format",
        "stream-json",
        "--json",
      ],
      { cwd: box.project, env, input: `${user("plan it")}${user("/plan off")}${user("do it")}` },
    );
    expect(run.code, run.stderr).toBe(0);
    const results = toolResults(run.stdout);
    // Without a sandbox only the read-only list runs (asked as in the mode before: allow all here).
    expect(results.get("s")).toMatchObject({ is_error: false });
    expect(results.get("l")).toMatchObject({ is_error: false });
    expect(results.get("t")?.is_error).toBe(true);
    expect(results.get("t")?.text).toContain("plan mode");
    expect(results.get("t")?.text).toContain("--sandbox full");
    // Leaving plan mode restored allow-all (--allow-tools): the write ran without a question.
    const events = jsonLines(run.stdout);
    // session_started names the mode the run started in.
    expect(events[0]).toMatchObject({ type: "session_started", mode: "plan" });
    expect(events.filter((event) => event.type === "mode_changed")).toEqual([
      { type: "mode_changed", mode: "allow-all", previous: "plan" },
    ]);
    expect(results.get("w")).toMatchObject({ is_error: false });
    expect(await readFile(join(box.project, "made.txt"), "utf8")).toBe("made\n");
    expect(existsSync(join(box.project, "made.txt"))).toBe(true);

    const [planned, , , done] = server.requests.map((request) => request.body as Record<string, unknown>);
    expect(planned).toBeDefined();
    expect(done).toBeDefined();
    expect(JSON.stringify(done?.tools)).toBe(JSON.stringify(planned?.tools));
    const before = systemOf(planned);
    const after = systemOf(done);
    expect(before).not.toBe(after);
    const heading = "\n# Mode\n";
    expect(before.indexOf(heading)).toBeGreaterThan(0);
    // Everything before the mode section is the same; the section is the last one.
    expect(before.slice(0, before.indexOf(heading))).toBe(after.slice(0, after.indexOf(heading)));
    expect(before.slice(before.indexOf(heading))).toContain("Plan mode is on");
    expect(after.slice(after.indexOf(heading))).toContain("Plan mode is off");
  });
});
