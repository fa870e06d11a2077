import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { makeSandbox, runPanto } from "./panto-process.js";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** "  tool results    1.2k  1 tool result message" -> ["tool results", "1.2k", "1 tool result message"] */
function partRow(stdout: string, name: string): string[] | undefined {
  return stdout
    .split("\n")
    .map((line) => line.trim().split(/\s{2,}/))
    .find((cells) => cells[0] === name);
}

describe("/context breaks the next request down (built CLI against a fake Anthropic server)", {
  timeout: 60_000,
}, () => {
  it("lists system prompt, tool definitions, summary, pinned notes, messages and tool results, and the reported size", async () => {
    const box = await makeSandbox();
    server = await startFakeAnthropicServer();
    await mkdir(join(box.project, ".panto"));
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({ model: "anthropic/claude-sonnet-4-5" }),
    );
    const env = { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url };
    const run = (args: string[]) => runPanto(args, { cwd: box.project, env });
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ id: "t1", name: "ls", arguments: { path: "." } }],
        usage: { input: 2000, output: 30 },
      },
      { type: "text", text: "Only a .git folder.", usage: { input: 3000, output: 200 } },
    );
    expect((await run(["-p", "what is here?"])).code).toBe(0);
    expect((await run(["-c", "-p", "/pin keep the parser API stable"])).code).toBe(0);

    const { stdout, code } = await run(["-c", "-p", "/context"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Next request, by part \(local estimate/);
    expect(partRow(stdout, "system prompt")?.[2]).toBe("with AGENTS.md");
    expect(partRow(stdout, "tool definitions")?.[2]).toBe("9 tools");
    expect(partRow(stdout, "summary")?.[2]).toBe("the compaction block, restored facts included");
    expect(partRow(stdout, "pinned notes")?.[2]).toBe("1 note");
    expect(partRow(stdout, "messages")?.[2]).toBe("3 user and assistant messages");
    expect(partRow(stdout, "tool results")?.[2]).toBe("1 tool result message");
    for (const name of ["system prompt", "tool definitions", "pinned notes", "messages", "tool results"])
      expect(Number.parseFloat(partRow(stdout, name)?.[1] ?? "0")).toBeGreaterThan(0);
    // 3,000 prompt tokens of the latest request + its 200 output tokens re-sent.
    expect(stdout).toContain("Reported by the provider: 3.2k tokens");
    // The turn-by-turn description follows.
    expect(stdout).toContain("[turn 1] 4 messages");
  });
});
