import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/config-error.js";
import { removePermissionRule } from "../../src/config/remove-permission-rule.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-remove-rule-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("removePermissionRule: /permissions remove on a config file", () => {
  it("removes the rule and keeps every other key, list and rule in their order", async () => {
    const file = join(dir, "config.json");
    await writeFile(
      file,
      JSON.stringify({
        model: "openai/gpt-5",
        permissions: {
          deny: ["Read(./.env)"],
          allow: ["Edit(src/**)", "Bash(git diff:*)"],
          ask: ["WebFetch"],
        },
      }),
    );
    expect(await removePermissionRule(file, "allow", "Edit(src/**)", 0)).toBe(true);
    const text = await readFile(file, "utf8");
    expect(JSON.parse(text)).toEqual({
      model: "openai/gpt-5",
      permissions: { deny: ["Read(./.env)"], allow: ["Bash(git diff:*)"], ask: ["WebFetch"] },
    });
    expect(Object.keys(JSON.parse(text).permissions)).toEqual(["deny", "allow", "ask"]);
    // Written beside the file, then renamed: no temporary file is left.
    expect(await readdir(dir)).toEqual(["config.json"]);
  });

  it("removes the occurrence at the index given when a list holds a rule twice, and the first one otherwise", async () => {
    const file = join(dir, "config.json");
    await writeFile(
      file,
      JSON.stringify({ permissions: { allow: ["Bash(ls:*)", "WebSearch", "Bash(ls:*)"] } }),
    );
    expect(await removePermissionRule(file, "allow", "Bash(ls:*)", 2)).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8")).permissions.allow).toEqual(["Bash(ls:*)", "WebSearch"]);
    // A stale index (the file changed): the first occurrence goes.
    expect(await removePermissionRule(file, "allow", "Bash(ls:*)", 1)).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8")).permissions.allow).toEqual(["WebSearch"]);
  });

  it("drops an emptied list and an emptied permissions key", async () => {
    const file = join(dir, "config.local.json");
    await writeFile(file, JSON.stringify({ model: "x/y", permissions: { allow: ["Bash(npm test:*)"] } }));
    expect(await removePermissionRule(file, "allow", "Bash(npm test:*)", 0)).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ model: "x/y" });
  });

  it("writes nothing and says so when the file does not hold the rule, or does not exist", async () => {
    const file = join(dir, "config.json");
    const text = JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } });
    await writeFile(file, text);
    expect(await removePermissionRule(file, "allow", "Bash(rm:*)", 0)).toBe(false);
    expect(await readFile(file, "utf8")).toBe(text);
    expect(await removePermissionRule(join(dir, "missing.json"), "allow", "Bash(rm:*)")).toBe(false);
    expect(await readdir(dir)).toEqual(["config.json"]);
  });

  it("leaves a file panto would refuse untouched, naming it", async () => {
    const file = join(dir, "config.json");
    const text = '{"permissions": {"allow": ["Bash(ls:*)"]}, "modle": "x"}';
    await writeFile(file, text);
    const error = await removePermissionRule(file, "allow", "Bash(ls:*)").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(file);
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
