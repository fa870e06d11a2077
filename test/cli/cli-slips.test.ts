import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionDirectory } from "../../src/session/index.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start } = useAnthropicSandboxes("k");

/** The session files of the sandbox's project (the folder's index apart). */
async function sessionFiles(home: string, project: string): Promise<string[]> {
  const names = await readdir(sessionDirectory(home, project)).catch(() => []);
  return names.filter((name) => name !== "index.jsonl");
}

/** Smaller slips of issue 42, each as the issue saw it, through the built CLI. */
describe("smaller slips (built CLI, issue 42)", { timeout: 60_000 }, () => {
  it("panto rewind --json with a missing session file: one clean prefix on stderr and a JSON error event", async () => {
    const box = await makeSandbox();
    const missing = `${box.root}/nowhere.jsonl`;
    const result = await runPanto(["rewind", missing, "--to", "1", "--json"], {
      cwd: box.project,
      env: box.env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`panto rewind: no session file at ${missing}\n`);
    expect(jsonLines(result.stdout)).toEqual([
      { type: "error", code: "session", message: `no session file at ${missing}` },
    ]);
  });

  it("panto --json with a bad flag: a JSON error event and done, exit 2; a subcommand's --json gets the error alone", async () => {
    const box = await makeSandbox();
    const run = await runPanto(["--json", "--bogus", "-p", "hi"], { cwd: box.project, env: box.env });
    expect(run.code).toBe(2);
    expect(jsonLines(run.stdout)).toEqual([
      { type: "error", code: "usage", message: "unknown option '--bogus'" },
      { type: "done", exit_code: 2 },
    ]);
    expect(run.stderr).toContain("unknown option '--bogus'");
    const conflicting = await runPanto(["--json", "-c", "-r", "x", "-p", "hi"], {
      cwd: box.project,
      env: box.env,
    });
    expect(conflicting.code).toBe(2);
    expect(jsonLines(conflicting.stdout)[0]).toMatchObject({ type: "error", code: "usage" });
    const sub = await runPanto(["rewind", "--json", "--to", "zero"], { cwd: box.project, env: box.env });
    expect(sub.code).toBe(2);
    expect(jsonLines(sub.stdout)).toEqual([
      { type: "error", code: "usage", message: '--to needs a turn number from 1 on (got "zero")' },
    ]);
    // Without --json, stdout stays empty.
    const plain = await runPanto(["--bogus"], { cwd: box.project, env: box.env });
    expect(plain.code).toBe(2);
    expect(plain.stdout).toBe("");
  });

  it("panto -c -p /clear announces no session file, and none is created", async () => {
    const { box, env, server } = await start({ responder: () => ({ type: "text", text: "hello" }) });
    const result = await runPanto(["-m", MODEL, "-c", "-p", "/clear"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain("Started a new session");
    expect(result.stdout).toContain("Nothing to clear");
    expect(await sessionFiles(box.home, box.project)).toEqual([]);
    expect(server.requests).toEqual([]);

    // With a conversation to continue, it is left as it was.
    expect((await runPanto(["-m", MODEL, "-p", "first"], { cwd: box.project, env })).code).toBe(0);
    const before = await sessionFiles(box.home, box.project);
    expect(before).toHaveLength(1);
    const again = await runPanto(["-m", MODEL, "-c", "--json", "-p", "/new"], { cwd: box.project, env });
    expect(again.code).toBe(0);
    const done = jsonLines(again.stdout).at(-1);
    expect(String(done?.text)).toMatch(/^Nothing to clear: .* is unchanged\.$/);
    expect(await sessionFiles(box.home, box.project)).toEqual(before);
  });

  it("a -p run whose setup fails after its session file was reserved leaves no file and no lock", async () => {
    const { box, env, server } = await start({ responder: () => ({ type: "text", text: "hello" }) });
    // An empty project COMPACTION.md is refused, after the model is chosen (and the file reserved).
    await mkdir(join(box.project, ".panto"), { recursive: true });
    await writeFile(join(box.project, ".panto", "COMPACTION.md"), "");
    const failed = await runPanto(["-m", MODEL, "-p", "hi"], { cwd: box.project, env });
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain("COMPACTION.md");
    expect(await readdir(sessionDirectory(box.home, box.project)).catch(() => [])).toEqual([]);
    expect(server.requests).toEqual([]);
    // Mended, the next run starts and keeps its session as usual.
    await writeFile(join(box.project, ".panto", "COMPACTION.md"), "Summarise the work so far.\n");
    expect((await runPanto(["-m", MODEL, "-p", "hi"], { cwd: box.project, env })).code).toBe(0);
    expect(await sessionFiles(box.home, box.project)).toHaveLength(1);
  });
});
