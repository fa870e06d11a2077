import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addPermissionRule } from "../../src/config/add-permission-rule.js";
import { ConfigError } from "../../src/config/config-error.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "panto-add-rule-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("addPermissionRule: an 'always' saved to a config file", () => {
  it("creates the file and its folder when missing", async () => {
    const file = join(dir, ".panto", "config.local.json");
    expect(await addPermissionRule(file, "allow", "Bash(npm test:*)")).toBe(true);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      permissions: { allow: ["Bash(npm test:*)"] },
    });
  });

  it("keeps every other key and rule, appends once, and writes nothing for a rule already there", async () => {
    const file = join(dir, "config.json");
    const before = {
      model: "openai/gpt-5",
      permissions: { deny: ["Read(./.env)"], allow: ["Edit(src/**)"] },
    };
    await writeFile(file, JSON.stringify(before));
    expect(await addPermissionRule(file, "allow", "Bash(git diff:*)")).toBe(true);
    expect(await addPermissionRule(file, "allow", "Bash(git diff:*)")).toBe(false);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      model: "openai/gpt-5",
      permissions: { deny: ["Read(./.env)"], allow: ["Edit(src/**)", "Bash(git diff:*)"] },
    });
  });

  it("leaves a file panto would refuse untouched, naming it", async () => {
    const file = join(dir, "config.json");
    const text = '{"modle": "x", // a comment\n}';
    await writeFile(file, text);
    const error = await addPermissionRule(file, "allow", "Bash(ls:*)").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(file);
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("refuses a rule that does not read as one, writing nothing", async () => {
    const file = join(dir, "config.json");
    await expect(addPermissionRule(file, "allow", "Bahs(ls)")).rejects.toBeInstanceOf(ConfigError);
    await expect(readFile(file, "utf8")).rejects.toThrow();
  });
});
