import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeReply } from "../../src/simulator/index.js";
import { localModelProjects, OVERFLOW } from "../support/local-model-project.js";
import { jsonLines, makeSandbox, runPanto } from "./panto-process.js";

const projects = localModelProjects();

/** A tool round whose request the server reports at `input` prompt tokens. */
function lsRound(index: number, input: number): FakeReply {
  return {
    type: "tool-calls",
    calls: [{ id: `call_${index}`, name: "ls", arguments: { path: "." } }],
    usage: { input, output: 10 },
  };
}

describe("context warnings in --json (built CLI)", { timeout: 60_000 }, () => {
  it("warns once per level of a configured window, and again after a compaction took the context below it", async () => {
    const { box, server } = await projects.open();
    const run = (args: string[]) => runPanto(args, { cwd: box.project, env: box.env });

    // A first turn far below every level: no warning.
    server.enqueue({ type: "text", text: "Hello.", usage: { input: 1000, output: 10 } });
    const first = await run(["--json", "-p", "start"]);
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout).filter((event) => event.type === "context_warning")).toEqual([]);

    server.enqueue(
      lsRound(1, 7200), // 72%: the 70% warning
      lsRound(2, 7400), // still past 70% only: nothing new
      lsRound(3, 8700), // 87%: the 85% warning
      lsRound(4, 8800), // nothing new
      OVERFLOW, // the next request: compacted, retried once
      { type: "text", text: "Summary of the start.", usage: { input: 500, output: 20 } },
      lsRound(5, 3000), // the retry, 30%: every level armed again
      lsRound(6, 7600), // 76%: the 70% warning again
      { type: "text", text: "Done.", usage: { input: 7700, output: 10 } },
    );
    const second = await run(["-c", "--json", "-p", "go on"]);
    expect(second.code).toBe(0);
    const events = jsonLines(second.stdout);
    const relevant = events
      .filter((event) => event.type === "context_warning" || event.type === "compaction")
      .map((event) => (event.type === "compaction" ? "compaction" : event));
    expect(relevant).toEqual([
      { type: "context_warning", level: 0.7, used: expect.any(Number), size: 10000 },
      { type: "context_warning", level: 0.85, used: expect.any(Number), size: 10000 },
      "compaction",
      { type: "context_warning", level: 0.7, used: expect.any(Number), size: 10000 },
    ]);
    const warnings = events.filter((event) => event.type === "context_warning");
    expect((warnings[0]?.used as number) / 10000).toBeGreaterThanOrEqual(0.7);
    expect((warnings[1]?.used as number) / 10000).toBeGreaterThanOrEqual(0.85);
    // Each warning comes before the run's end.
    expect(events.at(-1)?.type).toBe("done");
  });

  it("warns at the levels config context_warnings lists, and never with an empty list", async () => {
    const { box, server, configure } = await projects.open({ context_warnings: [0.5] });
    const config = (levels: number[]) => configure({ context_warnings: levels });
    server.enqueue(lsRound(1, 4000), lsRound(2, 5200), {
      type: "text",
      text: "Done.",
      usage: { input: 7800, output: 1 },
    });
    const once = await runPanto(["--json", "-p", "go"], { cwd: box.project, env: box.env });
    expect(once.code).toBe(0);
    expect(jsonLines(once.stdout).filter((event) => event.type === "context_warning")).toMatchObject([
      { level: 0.5, size: 10000 },
    ]);
    await config([]);
    server.enqueue({ type: "text", text: "Full.", usage: { input: 9900, output: 1 } });
    const never = await runPanto(["--json", "-p", "go"], { cwd: box.project, env: box.env });
    expect(never.code).toBe(0);
    expect(jsonLines(never.stdout).filter((event) => event.type === "context_warning")).toEqual([]);
  });

  it("refuses a context_warnings entry outside 0..1, naming the key", async () => {
    const box = await makeSandbox();
    await mkdir(join(box.project, ".panto"));
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({ model: "local/my-model", context_warnings: [0.7, 85] }),
    );
    const result = await runPanto(["-p", "go"], { cwd: box.project, env: box.env });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/context_warnings/);
  });
});
