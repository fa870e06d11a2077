import { execFileSync } from "node:child_process";
import { link, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { jsonLines, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start: setup } = useAnthropicSandboxes("test-key-123");

const FIFO_REFUSAL =
  "pipe is a named pipe (FIFO), not a regular file; read only works on regular files (a pipe or device could block it forever)";

describe("tools never hang (built CLI against a fake Anthropic server)", { timeout: 90_000 }, () => {
  it("a scripted read of a FIFO ends in a tool error at once and the run finishes", async () => {
    const { box, server, env } = await setup();
    execFileSync("mkfifo", [join(box.project, "pipe")]);
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_1", name: "read", arguments: { path: "pipe" } }] },
      { type: "text", text: "That is a pipe." },
    );
    const result = await runPanto(["-m", MODEL, "--json", "-p", "read pipe"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events.find((event) => event.type === "tool_result")).toEqual({
      type: "tool_result",
      tool_call_id: "toolu_1",
      name: "read",
      is_error: true,
      text: FIFO_REFUSAL,
    });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 0, text: "That is a pipe." });
    // The model was told.
    expect(JSON.stringify(server.requests[1]?.body)).toContain("is a named pipe (FIFO)");
  });

  it("print mode shows the refused read of a device on stderr and still answers", async () => {
    const { box, server, env } = await setup();
    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_1", name: "read", arguments: { path: "/dev/zero" } }] },
      { type: "text", text: "done" },
    );
    // Without a sandbox: inside one, /dev/zero is refused sooner, as outside what commands see.
    const result = await runPanto(["-m", MODEL, "--sandbox", "full", "-p", "read /dev/zero"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("done\n");
    expect(result.stderr).toContain("tool read: error: /dev/zero is a character device, not a regular file");
  });
});

describe("an empty answer is reported, not silent", { timeout: 90_000 }, () => {
  it("print mode writes a notice on stderr", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "" });
    const result = await runPanto(["-m", MODEL, "-p", "say nothing"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    // The answer itself is empty: one blank line, as for any answer.
    expect(result.stdout).toBe("\n");
    expect(result.stderr).toContain("warning: the model returned an empty answer (no text and no tool call)");
  });

  it("JSON mode emits a warning event with code empty_answer before done", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "", thinking: "hmm" });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "say nothing"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    const types = jsonLines(result.stdout).map((event) => event.type);
    expect(types.slice(-3)).toEqual(["assistant_message", "warning", "done"]);
    expect(jsonLines(result.stdout).find((event) => event.type === "warning")).toEqual({
      type: "warning",
      code: "empty_answer",
      message: "the model returned an empty answer (no text and no tool call)",
    });
  });

  it("an answer with text gets no such warning", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "text", text: "hello" });
    const result = await runPanto(["-m", MODEL, "--json", "-p", "hi"], { cwd: box.project, env });
    expect(jsonLines(result.stdout).filter((event) => event.type === "warning")).toEqual([]);
  });
});

function sessionLines(entries: unknown[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
}

const HEADER = {
  type: "session",
  version: 1,
  id: "5e551011-0000-4000-8000-000000000001",
  created: "2025-06-01T09:00:00.000Z",
  cwd: "/x",
};
const TS = "2025-06-01T09:00:00.000Z";

function text(role: "user" | "assistant", value: string): Record<string, unknown> {
  return role === "user"
    ? { role, content: [{ type: "text", text: value }] }
    : {
        role,
        content: [{ type: "text", text: value }],
        provider: "anthropic",
        api: "anthropic-messages",
        model: "claude-sonnet-4-5",
        stopReason: "stop",
      };
}

describe("damaged or unusual session files (built CLI)", { timeout: 90_000 }, () => {
  it("resumes a session file that starts with a UTF-8 byte order mark and leaves its bytes alone", async () => {
    const { box, server, env } = await setup();
    const file = join(box.root, "bom.jsonl");
    const original = `\uFEFF${sessionLines([
      HEADER,
      { type: "message", id: "a0000001", ts: TS, message: text("user", "remember the word marmalade") },
      { type: "message", id: "a0000002", ts: TS, message: text("assistant", "noted") },
    ])}`;
    await writeFile(file, original, { mode: 0o600 });
    server.enqueue({ type: "text", text: "marmalade" });
    const result = await runPanto(["-m", MODEL, "--session", file, "-p", "which word?"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("marmalade\n");
    expect(result.stderr).not.toContain("warning");
    expect(JSON.stringify(server.requests[0]?.body)).toContain("remember the word marmalade");
    expect((await readFile(file, "utf8")).startsWith(original)).toBe(true);
  });

  it("warns about kept copies naming an unknown compaction, with file and line, and still sends them", async () => {
    const { box, server, env } = await setup();
    const file = join(box.root, "orphans.jsonl");
    await writeFile(
      file,
      sessionLines([
        HEADER,
        { type: "message", id: "a0000001", ts: TS, message: text("user", "first question") },
        {
          type: "message",
          id: "a0000002",
          ts: TS,
          message: text("assistant", "stray copy"),
          keptBy: "nosuchid",
        },
      ]),
      { mode: 0o600 },
    );
    server.enqueue({ type: "text", text: "ok" });
    const result = await runPanto(["-m", MODEL, "--session", file, "-p", "go on"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      `warning: ${file}: kept copy at line 3 names compaction nosuchid, which is not in the active part of the session`,
    );
    expect(JSON.stringify(server.requests[0]?.body)).toContain("stray copy");
  });
});

describe("one writer per session (built CLI)", { timeout: 90_000 }, () => {
  it("refuses a second panto reaching the held session through a hard link or a symlink, naming the holder", async () => {
    const { box, server, env } = await setup();
    const file = join(box.root, "held.jsonl");
    server.enqueue({ type: "hang" });
    let holderPid: number | undefined;
    let stopHolder = (): void => {};
    const holder = runPanto(["-m", MODEL, "--session", file, "-p", "take your time"], {
      cwd: box.project,
      env,
      onSpawn: (child) => {
        holderPid = child.pid;
        stopHolder = () => child.kill("SIGKILL");
      },
    });
    // The holder has the lock once its request reached the server.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await link(file, join(box.root, "hard.jsonl"));
    await symlink(file, join(box.root, "soft.jsonl"));
    for (const alias of ["hard.jsonl", "soft.jsonl"]) {
      const second = await runPanto(["-m", MODEL, "--session", join(box.root, alias), "-p", "me too"], {
        cwd: box.project,
        env,
      });
      expect(second.code, alias).toBe(2);
      expect(second.stderr, alias).toContain(`is in use by another panto (pid ${holderPid},`);
    }
    stopHolder();
    await holder;
    // Only the holder's prompt is in the file.
    const prompts = (await readFile(file, "utf8"))
      .split("\n")
      .filter((line) => line.includes('"role":"user"'));
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("take your time");
  });
});
