import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeSandbox, runPanto } from "./panto-process.js";

describe("panto demo (built CLI)", { timeout: 60_000 }, () => {
  it("runs offline, overflows, compacts, retries, runs /compact and prints the effective context, exit 0", async () => {
    const box = await makeSandbox();
    const tmp = join(box.root, "tmp");
    await mkdir(tmp);
    // No key, no base URL, nothing configured: the demo needs none of them.
    const result = await runPanto(["demo"], { cwd: box.project, env: { ...box.env, TMPDIR: tmp } });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain("SIMULATION");
    expect(out).toMatch(/Session file \(in a temporary folder removed at the end; [^)]*\): \S+\.jsonl/);
    const overflowAt = out.indexOf("prompt is too long");
    const compactedAt = out.search(
      /context overflow: compacted \d+ turns? into a summary \(kept \d+ turns?, /,
    );
    const retryAt = out.indexOf("retrying the request once");
    const manualAt = out.indexOf("> /compact keep the bug list");
    const reportAt = out.search(/Compacted \d+ turns? into a summary; kept \d+ turns? verbatim/);
    const contextAt = out.indexOf("[compaction block]");
    expect([overflowAt, compactedAt, retryAt, manualAt, reportAt, contextAt].every((at) => at >= 0)).toBe(
      true,
    );
    expect(overflowAt < compactedAt && compactedAt < retryAt && retryAt < manualAt).toBe(true);
    expect(manualAt < reportAt && reportAt < contextAt).toBe(true);
    expect(out).toContain("instructions: keep the bug list");
    expect(out.slice(contextAt)).toContain("Bug list (kept in full, as instructed)");
    expect(out.slice(contextAt)).toMatch(/\[turn 1\] \d+ messages, ~\d+ tokens/);
    // The scripted answer to the prompt that overflowed arrived after the retry.
    expect(out.slice(retryAt)).toContain("That is bug 4");
    // The temporary folder it ran in is gone (the per-user lock folder of every panto may stay).
    expect(await demoFolders(tmp)).toEqual([]);
  });

  it("with --keep leaves its temporary folder, session file included, and says where", async () => {
    const box = await makeSandbox();
    const tmp = join(box.root, "tmp");
    await mkdir(tmp);
    const result = await runPanto(["demo", "--keep"], { cwd: box.project, env: { ...box.env, TMPDIR: tmp } });
    expect(result.code).toBe(0);
    const kept = await demoFolders(tmp);
    expect(kept).toHaveLength(1);
    const root = join(tmp, kept[0] ?? "");
    expect(result.stdout).toContain(`The demo's files are kept in ${root}`);
    const sessionDir = join(root, "home", "sessions");
    const projects = await readdir(sessionDir);
    const sessions = await readdir(join(sessionDir, projects[0] ?? ""));
    expect(sessions.some((name) => name.endsWith(".jsonl"))).toBe(true);
  });
});

/** The demo's own temporary folders in `tmp`. */
async function demoFolders(tmp: string): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => name.startsWith("panto-demo-"));
}
