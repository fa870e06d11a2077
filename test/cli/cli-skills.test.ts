import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { runPanto } from "./panto-process.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start } = useAnthropicSandboxes("k");

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

interface AnthropicBody {
  system?: Array<{ text: string }>;
  tools?: Array<{ name: string }>;
  messages: Array<{ role: string; content: unknown }>;
}

const bodyOf = (request: RecordedRequest | undefined): AnthropicBody => request?.body as AnthropicBody;
const systemOf = (request: RecordedRequest | undefined): string =>
  (bodyOf(request).system ?? []).map((block) => block.text).join("");

describe("Agent Skills (built CLI against a fake Anthropic server)", { timeout: 120_000 }, () => {
  it("lists every skill in the system prompt in a stable order, loads one by a skill call, and keeps naming it after a compaction", async () => {
    const { box, server, env } = await start();
    const { project, home } = box;
    await put(
      join(project, ".panto", "config.json"),
      JSON.stringify({ model: MODEL, keep_verbatim_tokens: 0 }),
    );
    await put(
      join(project, ".panto", "skills", "deploy", "SKILL.md"),
      "---\nname: deploy\ndescription: Deploy the app to staging and check it\n---\n\n# Deploying\n\nRun scripts/deploy.sh staging, then go through CHECKLIST.md in this folder.\n",
    );
    await put(join(project, ".panto", "skills", "deploy", "CHECKLIST.md"), "- health check\n");
    await put(
      join(project, ".claude", "skills", "zeta-lint", "SKILL.md"),
      "---\nname: zeta-lint\ndescription: Lint with zeta\n---\nRun zeta.\n",
    );
    await put(
      join(home, "skills", "alpha", "SKILL.md"),
      "---\ndescription: The first skill by name\n---\nAlpha steps.\n",
    );
    await put(
      join(project, ".agents", "skills", "broken", "SKILL.md"),
      "---\nname: broken\n---\nNo description.\n",
    );
    const session = join(project, "s.jsonl");
    const run = (prompt: string) => runPanto(["--session", session, "-p", prompt], { cwd: project, env });

    server.enqueue(
      { type: "tool-calls", calls: [{ id: "toolu_skill", name: "skill", arguments: { name: "deploy" } }] },
      { type: "text", text: "Deployed to staging." },
    );
    const first = await run("deploy the app");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe("Deployed to staging.\n");
    expect(first.stderr).toContain(
      `${join(project, ".agents", "skills", "broken", "SKILL.md")}: the front matter has no "description"`,
    );
    const system = systemOf(server.requests[0]);
    expect(system).toContain(
      "- alpha: The first skill by name\n- deploy: Deploy the app to staging and check it\n- zeta-lint: Lint with zeta",
    );
    expect(system).not.toContain("broken");
    expect(bodyOf(server.requests[0]).tools?.map((tool) => tool.name)).toContain("skill");
    const loaded = JSON.stringify(bodyOf(server.requests[1]).messages.at(-1)?.content);
    expect(loaded).toContain("Run scripts/deploy.sh staging, then go through CHECKLIST.md in this folder.");
    expect(loaded).toContain(`Its folder is ${join(project, ".panto", "skills", "deploy")}`);

    const listed = await run("/skills");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("3 skills");
    expect(listed.stdout).toContain(
      `  deploy: Deploy the app to staging and check it\n    ${join(project, ".panto", "skills", "deploy", "SKILL.md")}`,
    );
    expect(listed.stdout).toContain(join(home, "skills", "alpha", "SKILL.md"));

    server.enqueue({ type: "text", text: "SUMMARY: the app was deployed to staging." });
    const compacted = await run("/compact");
    expect(compacted.code, compacted.stderr).toBe(0);
    expect(compacted.stdout).toContain("Compacted 1 turn into a summary");

    server.enqueue({ type: "text", text: "Next: watch the health check." });
    const after = await run("what next?");
    expect(after.code).toBe(0);
    const last = server.requests.at(-1);
    expect(systemOf(last)).toBe(system);
    const context = JSON.stringify(bodyOf(last).messages);
    expect(context).toContain("SUMMARY: the app was deployed to staging.");
    expect(context).toContain("## Skills loaded earlier");
    expect(context).toContain("\\n- deploy");
    expect(context).not.toContain("Run scripts/deploy.sh");
    const entries = (await readFile(session, "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string; skills?: string[] });
    expect(entries.find((entry) => entry.type === "compaction")?.skills).toEqual(["deploy"]);
  });

  it("without skills, neither the prompt nor the tools change, and /skills says where to put one", async () => {
    const { box, server, env } = await start();
    server.enqueue({ type: "text", text: "hi" });
    const result = await runPanto(["-m", MODEL, "-p", "hello"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(systemOf(server.requests[0])).not.toContain("# Skills");
    expect(bodyOf(server.requests[0]).tools?.map((tool) => tool.name)).not.toContain("skill");
    const listed = await runPanto(["-m", MODEL, "-p", "/skills"], { cwd: box.project, env });
    expect(listed.stdout).toContain("No skills. A skill is a folder with a SKILL.md");
  });
});
