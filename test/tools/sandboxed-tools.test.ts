import { chmodSync, existsSync, lstatSync, readFileSync, statSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type SandboxPolicy, sandboxLayout, type ToolSandbox } from "../../src/sandbox/index.js";
import {
  createEditTool,
  createGlobTool,
  createGrepTool,
  createLsTool,
  createReadTool,
  createWriteTool,
  type ToolContext,
} from "../../src/tools/index.js";
import { makeWorld, put, type SandboxWorld, worldPolicy } from "../sandbox/sandbox-fixture.js";
import { useTempDir } from "../support/use-temp-dir.js";
import { textOf } from "./temp-dir.js";

const temp = useTempDir("panto-sandboxed-tools-", { resolveLinks: true });

/** The in-process tools need only the policy and its layout; commands are not started here. */
function toolSandbox(policy: SandboxPolicy): ToolSandbox {
  return {
    policy,
    layout: () => sandboxLayout(policy),
    prepare: () => {
      throw new Error("no command runs in these tests");
    },
  };
}

function setup(options: Parameters<typeof worldPolicy>[1] = {}): {
  world: SandboxWorld;
  context: ToolContext;
} {
  const world = makeWorld(temp());
  return { world, context: { cwd: world.project, sandbox: toolSandbox(worldPolicy(world, options)) } };
}

const read = createReadTool();
const write = createWriteTool();
const edit = createEditTool();
const ls = createLsTool();
const glob = createGlobTool();
const grep = createGrepTool();

describe("the file tools in a sandbox", () => {
  it("refuse to read ~/.ssh/id_* or list ~/.ssh, naming the rule", async () => {
    const { world, context } = setup();
    const key = await read.execute({ path: path.join(world.home, ".ssh", "id_ed25519") }, context);
    expect(key.isError).toBe(true);
    expect(textOf(key)).toContain("refused by the sandbox, rule hidden-credentials");
    expect(textOf(key)).not.toContain("PRIVATE KEY");
    expect(textOf(await ls.execute({ path: ".ssh" }, { ...context, cwd: world.home }))).toContain(
      "rule hidden-credentials",
    );
  });

  it("refuse to write ../outside and leave it untouched", async () => {
    const { world, context } = setup();
    const result = await write.execute({ path: "../../../outside/new.txt", content: "x" }, context);
    expect(textOf(result)).toContain("rule outside-writable-roots");
    expect(existsSync(path.join(world.outside, "new.txt"))).toBe(false);
  });

  it("refuse a symlink out of the workspace for writing, and one into a credential folder for reading", async () => {
    const { world, context } = setup();
    symlinkSync(world.outside, path.join(world.project, "out"));
    symlinkSync(path.join(world.home, ".ssh", "id_ed25519"), path.join(world.project, "key"));
    const written = await write.execute({ path: "out/planted.txt", content: "x" }, context);
    expect(textOf(written)).toContain("rule outside-writable-roots");
    expect(existsSync(path.join(world.outside, "planted.txt"))).toBe(false);
    expect(textOf(await read.execute({ path: "key" }, context))).toContain("rule hidden-credentials");
  });

  it("refuse to edit .git/config or create .panto/config.json", async () => {
    const { world, context } = setup();
    const config = path.join(world.project, ".git", "config");
    const before = readFileSync(config, "utf8");
    const edited = await edit.execute(
      { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tfsmonitor = x" },
      context,
    );
    expect(textOf(edited)).toContain("rule protected-path");
    expect(readFileSync(config, "utf8")).toBe(before);
    const created = await write.execute({ path: ".panto/config.json", content: "{}" }, context);
    expect(textOf(created)).toContain("rule protected-path");
    expect(existsSync(path.join(world.project, ".panto"))).toBe(false);
  });

  it("read, write and edit inside the project as without a sandbox", async () => {
    const { world, context } = setup();
    expect((await write.execute({ path: "src/a.ts", content: "one\n" }, context)).isError).toBe(false);
    expect(
      (await edit.execute({ path: "src/a.ts", old_string: "one", new_string: "two" }, context)).isError,
    ).toBe(false);
    expect(readFileSync(path.join(world.project, "src", "a.ts"), "utf8")).toBe("two\n");
    expect(textOf(await read.execute({ path: "src/a.ts" }, context))).toContain("two");
  });

  it("keep an existing file's mode and inode, and write a project symlink's target, through the verified descriptor", async () => {
    const { world, context } = setup();
    const script = path.join(world.project, "run.sh");
    put(script, "echo one\n");
    chmodSync(script, 0o751);
    const inode = statSync(script).ino;
    symlinkSync("run.sh", path.join(world.project, "alias.sh"));
    expect((await write.execute({ path: "alias.sh", content: "echo two\n" }, context)).isError).toBe(false);
    expect(
      (await edit.execute({ path: "run.sh", old_string: "two", new_string: "three" }, context)).isError,
    ).toBe(false);
    expect(readFileSync(script, "utf8")).toBe("echo three\n");
    expect(statSync(script).mode & 0o777).toBe(0o751);
    expect(statSync(script).ino).toBe(inode);
    expect(lstatSync(path.join(world.project, "alias.sh")).isSymbolicLink()).toBe(true);
    const created = await write.execute({ path: "deep/new/dir/file.txt", content: "x" }, context);
    expect(textOf(created)).toBe("Created deep/new/dir/file.txt: 1 bytes, 1 line");
  });

  it("write nothing in read-only mode", async () => {
    const { world, context } = setup({ mode: "read-only" });
    expect(textOf(await write.execute({ path: "new.txt", content: "x" }, context))).toContain(
      "in mode read-only only the private temporary folder",
    );
    expect(existsSync(path.join(world.project, "new.txt"))).toBe(false);
  });

  it("leave credentials out of glob and grep results, also through a symlink", async () => {
    const { world, context } = setup();
    symlinkSync(path.join(world.home, ".ssh", "id_ed25519"), path.join(world.project, "key"));
    const homeContext = { ...context, cwd: world.home };
    const found = textOf(await glob.execute({ pattern: "**/*" }, homeContext));
    expect(found).toContain("work/project/README.md");
    expect(found).not.toMatch(/\.ssh|\.aws|\.netrc|\.panto\/config/);
    const matches = textOf(await grep.execute({ pattern: "PRIVATE|hunter2|secret" }, homeContext));
    expect(matches).toBe("No matches for PRIVATE|hunter2|secret");
    expect(textOf(await grep.execute({ pattern: "PRIVATE" }, context))).toBe("No matches for PRIVATE");
  });

  it("see the private temporary folder where commands see it", async () => {
    const { world, context } = setup();
    const viewTmp = world.hostTmp;
    const notes = path.join(viewTmp, "notes.txt");
    expect((await write.execute({ path: notes, content: "scratch\n" }, context)).isError).toBe(false);
    expect(readFileSync(path.join(world.hostTmp, "private", "tmp", "notes.txt"), "utf8")).toBe("scratch\n");
    expect(textOf(await read.execute({ path: notes }, context))).toContain("scratch");
    put(path.join(world.hostTmp, "private", "tmp", "deep", "x.log"), "needle\n");
    expect(textOf(await grep.execute({ pattern: "needle", path: viewTmp }, context))).toBe(
      `${path.join(viewTmp, "deep", "x.log")}:1: needle`,
    );
  });
});
