import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { ToolCallBlock } from "../../src/core/index.js";
import { RunRules } from "../../src/runtime/run-rules.js";
import { createDefaultTools, type Tool } from "../../src/tools/index.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "panto-run-rules-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const bashTool = createDefaultTools().find((tool) => tool.definition.name === "bash") as Tool;
const bash = (command: string): ToolCallBlock => ({
  type: "tool-call",
  id: "c1",
  name: "bash",
  arguments: { command },
});

/** A project whose local file holds `allow`, loaded as a run loads it. */
async function rulesOf(allow: string[]) {
  const project = join(root, "project");
  const home = join(root, "home");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(join(project, ".panto"), { recursive: true });
  const local = join(project, ".panto", "config.local.json");
  await writeFile(local, JSON.stringify({ permissions: { allow } }));
  const env = { HOME: root, PANTO_HOME: home, PANTO_MANAGED_SETTINGS: join(root, "none.json") };
  const loaded = await loadConfig({ cwd: project, env });
  const rules = await RunRules.create(loaded.permissionRules, { root: project, home: root }, project, {
    local,
    user: join(home, "config.json"),
  });
  return { rules, local };
}

describe("RunRules.remove: /permissions remove, in force at once", () => {
  it("takes a file's rule out of the file and out of force, and moves the later rules of that list up", async () => {
    const { rules, local } = await rulesOf(["Bash(git diff:*)", "Bash(npm test:*)"]);
    expect(rules.check(bash("git diff"), bashTool)?.verdict).toBe("allow");
    const first = rules.list.find((rule) => rule.text === "Bash(git diff:*)");
    expect(first).toBeDefined();
    expect(await rules.remove(first as NonNullable<typeof first>)).toBe(true);
    expect(rules.check(bash("git diff"), bashTool)).toBeUndefined();
    expect(rules.check(bash("npm test"), bashTool)?.verdict).toBe("allow");
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({
      permissions: { allow: ["Bash(npm test:*)"] },
    });
    expect(rules.list.map((rule) => [rule.text, rule.index])).toEqual([["Bash(npm test:*)", 0]]);
  });

  it("takes a session rule out of force without touching any file", async () => {
    const { rules, local } = await rulesOf([]);
    await rules.allow(["Bash(make:*)"], "session");
    expect(rules.check(bash("make all"), bashTool)?.verdict).toBe("allow");
    const [added] = rules.list;
    expect(added).toMatchObject({ layer: "session", text: "Bash(make:*)" });
    expect(await rules.remove(added as NonNullable<typeof added>)).toBe(true);
    expect(rules.check(bash("make all"), bashTool)).toBeUndefined();
    expect(rules.list).toEqual([]);
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({ permissions: { allow: [] } });
  });

  it("takes a rule out of force even when its file no longer holds it, and says so", async () => {
    const { rules, local } = await rulesOf(["Bash(ls:*)"]);
    await writeFile(local, JSON.stringify({ model: "x/y" }));
    const [rule] = rules.list;
    expect(await rules.remove(rule as NonNullable<typeof rule>)).toBe(false);
    expect(rules.check(bash("ls"), bashTool)).toBeUndefined();
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({ model: "x/y" });
  });
});
