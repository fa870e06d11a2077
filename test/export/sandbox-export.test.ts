import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/index.js";
import { exportSession, memorySink } from "../../src/export/index.js";
import { openSession } from "../../src/session/index.js";
import { createDefaultTools } from "../../src/tools/index.js";
import { scriptedClients } from "../agent/scripted-client.js";
import { useTempDir } from "../support/use-temp-dir.js";

const temp = useTempDir("panto-sandbox-export-");

/** A session of two runs: one in workspace-write, one with no sandbox. */
async function twoRuns(): Promise<string> {
  const path = join(temp(), "s.jsonl");
  const records = [
    { mode: "workspace-write" as const, network: false, writableRoots: ["/work/project"] },
    { mode: "full" as const, network: true, writableRoots: [] },
  ];
  for (const [run, sandboxRecord] of records.entries()) {
    const session = await openSession(path, { cwd: temp() });
    const scripted = scriptedClients([{ reply: `answer ${run}` }, { reply: `again ${run}` }]);
    const agent = new Agent({
      session,
      model: "fake/model",
      createClient: scripted.createClient,
      tools: createDefaultTools(),
      systemPrompt: "SYSTEM",
      compactionPrompt: "COMPACT",
      keepVerbatimTokens: 0,
      approve: async () => "allow",
      onEvent: () => undefined,
      cwd: temp(),
      sandboxRecord,
    });
    await agent.prompt(`prompt ${run}`);
    await agent.prompt(`again ${run}`);
    await session.close();
  }
  return path;
}

describe("the sandbox in the session and its export", () => {
  it("records the run's sandbox once, before its first prompt", async () => {
    const lines = (await readFile(await twoRuns(), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const types = lines.map((line) => (line.type === "message" ? line.message.role : line.type));
    expect(types).toEqual([
      "session",
      "sandbox",
      "user",
      "assistant",
      "user",
      "assistant",
      "sandbox",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(lines[1]).toMatchObject({
      mode: "workspace-write",
      network: false,
      writableRoots: ["/work/project"],
    });
  });

  it("names each run's sandbox in the Markdown and HTML exports", async () => {
    const path = await twoRuns();
    const markdown = memorySink();
    await exportSession({ path, format: "md" }, markdown);
    expect(markdown.text()).toContain(
      "Sandbox: workspace-write, network off, writable: /work/project; full (no sandbox: the model's commands ran with the user's rights).",
    );
    expect(markdown.text()).toContain(
      "### sandbox: workspace-write, network off, writable: /work/project · line 2",
    );
    const html = memorySink();
    await exportSession({ path, format: "html" }, html);
    expect(html.text()).toContain(
      "sandbox: workspace-write, network off, writable: /work/project; full (no sandbox",
    );
    expect(html.text()).toContain('<span class="label">Sandbox</span>');
  });
});
