import { existsSync } from "node:fs";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { startFakeAnthropicServer } from "../../src/simulator/index.js";
import { jsonLines, makeSandbox, runPanto, type Sandbox } from "./panto-process.js";

const MODEL = "anthropic/claude-rules";

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Call = { name: string; arguments: Record<string, unknown> };

/** A project with the given config files, and a fake server whose model makes `calls` in one round, then answers. */
async function setup(files: Record<string, unknown>, calls: Call[]) {
  server = await startFakeAnthropicServer();
  server.enqueue(
    { type: "tool-calls", calls: calls.map((call, index) => ({ id: `call_${index}`, ...call })) },
    { type: "text", text: "finished" },
  );
  const box = await makeSandbox();
  for (const [name, content] of Object.entries(files)) {
    const file = name.startsWith("/") ? name : join(box.project, name);
    await mkdir(join(file, ".."), { recursive: true });
    await writeFile(file, JSON.stringify(content));
  }
  const env = {
    ...box.env,
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url,
    PANTO_MANAGED_SETTINGS: join(box.root, "managed.json"),
  };
  return { box, env };
}

async function runJson(box: Sandbox, env: NodeJS.ProcessEnv, ...flags: string[]) {
  const run = await runPanto(["-m", MODEL, "--json", "--sandbox", "full", ...flags, "-p", "go"], {
    cwd: box.project,
    env,
  });
  const results = jsonLines(run.stdout).filter((event) => event.type === "tool_result");
  return { run, results: results.map((event) => ({ error: event.is_error, text: String(event.text) })) };
}

const bash = (command: string): Call => ({ name: "bash", arguments: { command } });

describe("permission rules in print and JSON modes", () => {
  it("runs allowed commands and edits without --allow-tools, and leaves the rest to the mode (denied in -p)", async () => {
    const { box, env } = await setup(
      { ".panto/config.json": { permissions: { allow: ["Bash(echo:*)", "Edit(src/**)"] } } },
      [
        bash("echo allowed-ran"),
        bash("echo one && echo two"),
        bash("echo part && touch not-allowed.txt"),
        { name: "write", arguments: { path: "src/a.txt", content: "in src" } },
        { name: "write", arguments: { path: "b.txt", content: "outside src" } },
      ],
    );
    const { run, results } = await runJson(box, env);
    expect(run.code).toBe(0);
    expect(results[0]).toEqual({ error: false, text: expect.stringContaining("allowed-ran") });
    expect(results[1]?.error).toBe(false);
    expect(results[2]?.error).toBe(true);
    expect(existsSync(join(box.project, "not-allowed.txt"))).toBe(false);
    expect(results[3]?.error).toBe(false);
    expect(await readFile(join(box.project, "src", "a.txt"), "utf8")).toBe("in src");
    expect(results[4]?.error).toBe(true);
    expect(existsSync(join(box.project, "b.txt"))).toBe(false);
  });

  it("denies in every mode, --allow-tools included, naming the rule and its file; an ask rule is refused where nobody can be asked", async () => {
    const config = join(".panto", "config.json");
    const { box, env } = await setup(
      { [config]: { permissions: { deny: ["Bash(rm:*)"], ask: ["Bash(git push:*)"] } } },
      [bash("echo keep > kept.txt; rm kept.txt"), bash("git push origin main"), bash("echo fine")],
    );
    const { run, results } = await runJson(box, env, "--allow-tools");
    expect(run.code).toBe(0);
    expect(results[0]?.error).toBe(true);
    expect(results[0]?.text).toContain(`Bash(rm:*) (permissions.deny[0] in ${join(box.project, config)})`);
    expect(existsSync(join(box.project, "kept.txt"))).toBe(false);
    expect(results[1]?.error).toBe(true);
    expect(results[1]?.text).toContain("Bash(git push:*) (permissions.ask[0]");
    expect(results[2]).toEqual({ error: false, text: expect.stringContaining("fine") });
    // The warning names the rule that asks, and does not offer --allow-tools, which is given.
    const warnings = jsonLines(run.stdout)
      .filter((event) => event.type === "warning")
      .map((event) => String(event.message));
    const denied = warnings.filter((message) => message.startsWith("denied bash"));
    expect(denied).toHaveLength(1);
    expect(denied[0]).toContain("the permission rule Bash(git push:*)");
    expect(denied[0]).toContain("asks first, and nobody can be asked here");
    expect(denied[0]).not.toContain("--allow-tools");
  });

  it("lets the user's deny and the managed settings beat a project's allow", async () => {
    const { box, env } = await setup(
      {
        ".panto/config.json": { permissions: { allow: ["Bash", "Task"] } },
        [join("..", "home", "config.json")]: { permissions: { deny: ["Bash(npm publish:*)"] } },
        [join("..", "managed.json")]: { permissions: { deny: ["Task(deployer)"] } },
      },
      [
        bash("npm publish --tag next"),
        bash("echo project-allowed"),
        { name: "task", arguments: { agent: "deployer", prompt: "deploy it" } },
      ],
    );
    const { run, results } = await runJson(box, env);
    expect(run.code).toBe(0);
    expect(results[0]?.text).toContain(
      `Bash(npm publish:*) (permissions.deny[0] in ${join(box.home, "config.json")})`,
    );
    expect(results[1]).toEqual({ error: false, text: expect.stringContaining("project-allowed") });
    expect(results[2]?.text).toContain(
      `Task(deployer) (permissions.deny[0] in ${join(box.root, "managed.json")})`,
    );
  });

  it("judges a path through a symlink by where it leads, and reads .panto/config.local.json", async () => {
    const { box, env } = await setup(
      { ".panto/config.local.json": { permissions: { deny: ["Read(secrets/)"] } } },
      [
        { name: "read", arguments: { path: "innocent/key.txt" } },
        { name: "read", arguments: { path: "notes.txt" } },
      ],
    );
    await mkdir(join(box.project, "secrets"));
    await writeFile(join(box.project, "secrets", "key.txt"), "TOP SECRET");
    await symlink(join(box.project, "secrets"), join(box.project, "innocent"));
    await writeFile(join(box.project, "notes.txt"), "plain notes");
    const { results } = await runJson(box, env);
    expect(results[0]?.error).toBe(true);
    expect(results[0]?.text).toContain("Read(secrets/) (permissions.deny[0] in");
    expect(results[0]?.text).not.toContain("TOP SECRET");
    expect(results[1]).toEqual({ error: false, text: expect.stringContaining("plain notes") });
  });

  it("keeps what a Read deny rule covers out of grep's matches and glob's list, saying how many files and which rule", async () => {
    const { box, env } = await setup(
      { ".panto/config.json": { permissions: { deny: ["Read(./secrets/**)"] } } },
      [
        { name: "grep", arguments: { pattern: "TOKEN" } },
        { name: "glob", arguments: { pattern: "**/*.txt" } },
        { name: "grep", arguments: { pattern: "TOKEN", path: "src" } },
      ],
    );
    await mkdir(join(box.project, "secrets"), { recursive: true });
    await mkdir(join(box.project, "src"), { recursive: true });
    await writeFile(join(box.project, "secrets", "key.txt"), "TOKEN=hunter2-secret\n");
    await writeFile(join(box.project, "src", "app.txt"), "uses TOKEN from the environment\n");
    const { run, results } = await runJson(box, env, "--allow-tools");
    expect(run.code).toBe(0);
    expect(results[0]?.text).toContain("src/app.txt:1: uses TOKEN from the environment");
    expect(results[0]?.text).not.toContain("hunter2");
    expect(results[0]?.text).toContain(
      "(1 file not searched: denied by Read(./secrets/**) (permissions.deny[0] in ",
    );
    expect(results[1]?.text).toContain("src/app.txt");
    expect(results[1]?.text).not.toContain("key.txt");
    expect(results[1]?.text).toContain("(1 file not listed: denied by Read(./secrets/**)");
    // Nothing under the denied folder searched: no note.
    expect(results[2]?.text).toBe("src/app.txt:1: uses TOKEN from the environment");
    expect(JSON.stringify(server?.requests)).not.toContain("hunter2");
  });

  it("stops at start, exit 2, on a bad rule: the file, the list and index, and the tool meant", async () => {
    const { box, env } = await setup(
      { ".panto/config.json": { permissions: { allow: ["Bash(ls)", "Bahs(npm test)"] } } },
      [],
    );
    const run = await runPanto(["-m", MODEL, "-p", "go"], { cwd: box.project, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(box.project, ".panto", "config.json"));
    expect(run.stderr).toContain('"permissions.allow[1]"');
    expect(run.stderr).toContain("did you mean Bash?");
    expect(server?.requests).toHaveLength(0);
  });

  it("stops at start on an unreadable managed file, naming it", async () => {
    const { box, env } = await setup({ [join("..", "managed.json")]: "not an object" }, []);
    const run = await runPanto(["-m", MODEL, "-p", "go"], { cwd: box.project, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(join(box.root, "managed.json"));
    expect(server?.requests).toHaveLength(0);
  });
});

describe("listing the rules in force", () => {
  it("panto permissions lists every file's rules deny first with layer, key and file; --json the same as data", async () => {
    const { box, env } = await setup(
      {
        ".panto/config.json": {
          permissions: { allow: ["Bash(npm test)", "Edit(src/**)"], deny: ["Read(./.env)"] },
        },
        ".panto/config.local.json": { permissions: { ask: ["Bash(git push:*)"] } },
      },
      [],
    );
    const project = join(box.project, ".panto", "config.json");
    const local = join(box.project, ".panto", "config.local.json");
    const text = await runPanto(["permissions"], { cwd: box.project, env });
    expect(text.code).toBe(0);
    const lines = text.stdout.trim().split("\n");
    expect(lines[0]).toBe("deny:");
    expect(lines[1]).toMatch(
      new RegExp(`^  Read\\(\\./\\.env\\)\\s+project\\s+permissions\\.deny\\[0\\] in ${project}$`),
    );
    expect(lines[2]).toBe("ask:");
    expect(lines[3]).toContain(`local    permissions.ask[0] in ${local}`);
    expect(lines[4]).toBe("allow:");
    expect(lines[6]).toContain(`Edit(src/**)`);
    const json = await runPanto(["permissions", "--json"], { cwd: box.project, env });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      rules: [
        { list: "deny", rule: "Read(./.env)", layer: "project", index: 0, file: project },
        { list: "ask", rule: "Bash(git push:*)", layer: "local", index: 0, file: local },
        { list: "allow", rule: "Bash(npm test)", layer: "project", index: 0, file: project },
        { list: "allow", rule: "Edit(src/**)", layer: "project", index: 1, file: project },
      ],
      files: [project, local],
    });
  });

  it("/permissions shows the same in a run, and says how to add rules when there are none", async () => {
    const { box, env } = await setup({ ".panto/config.json": { permissions: { deny: ["Bash(rm:*)"] } } }, []);
    const listed = await runPanto(["-m", MODEL, "-p", "/permissions"], { cwd: box.project, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("deny:\n  1. Bash(rm:*)  project  permissions.deny[0] in");
    expect(listed.stdout).toContain("Remove one with /permissions remove N");
    const empty = await makeSandbox();
    const none = await runPanto(["-m", MODEL, "-p", "/permissions"], {
      cwd: empty.project,
      env: { ...env, ...empty.env },
    });
    expect(none.stdout).toContain("No permission rules");
    expect(server?.requests).toHaveLength(0);
  });
});

describe("removing a rule with /permissions remove", () => {
  it("removes a rule from the local, project or user file by its text or number, refuses a managed one naming its file, and says what is not there", async () => {
    const { box, env } = await setup(
      {
        ".panto/config.json": { model: "anthropic/claude-rules", permissions: { allow: ["Edit(src/**)"] } },
        ".panto/config.local.json": { permissions: { allow: ["Bash(npm test:*)", "WebSearch"] } },
        [join("..", "managed.json")]: { permissions: { deny: ["Read(./.env)"] } },
      },
      [],
    );
    const userFile = join(box.home, "config.json");
    await writeFile(userFile, JSON.stringify({ permissions: { allow: ["Bash(git diff:*)"] } }));
    const local = join(box.project, ".panto", "config.local.json");
    const project = join(box.project, ".panto", "config.json");
    const managed = join(box.root, "managed.json");
    const command = (text: string) => runPanto(["-m", MODEL, "-p", text], { cwd: box.project, env });

    const byText = await command("/permissions remove Bash(npm test:*)");
    expect(byText.code).toBe(0);
    expect(byText.stdout).toContain(
      `Removed Bash(npm test:*) (permissions.allow[0]) from ${local}: no longer in force.`,
    );
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({ permissions: { allow: ["WebSearch"] } });

    // Numbered as /permissions lists them: deny first (the managed rule is 1).
    const listed = await command("/permissions");
    expect(listed.stdout).toMatch(/deny:\n {2}1\. Read\(\.\/\.env\)\s+managed/);
    const managedRule = await command("/permissions remove 1");
    expect(managedRule.code).toBe(2);
    expect(managedRule.stderr).toContain(`Read(./.env) comes from the managed settings (${managed})`);
    expect(JSON.parse(await readFile(managed, "utf8"))).toEqual({ permissions: { deny: ["Read(./.env)"] } });

    const projectRule = await command("/permissions remove Edit(src/**)");
    expect(projectRule.code).toBe(0);
    expect(projectRule.stdout).toContain(`from ${project}`);
    // The rest of the project file stays as it was.
    expect(JSON.parse(await readFile(project, "utf8"))).toEqual({ model: "anthropic/claude-rules" });

    const userRule = await command("/permissions remove Bash(git diff:*)");
    expect(userRule.code).toBe(0);
    expect(JSON.parse(await readFile(userFile, "utf8"))).toEqual({});

    const missing = await command("/permissions remove Bash(rm:*)");
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no permission rule Bash(rm:*) is in force");
    const outOfRange = await command("/permissions remove 9");
    expect(outOfRange.code).toBe(2);
    expect(outOfRange.stderr).toContain("needs a number from 1 to 2");
    const unknown = await command("/permissions drop 1");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('/permissions takes no argument, or "remove"');
    expect(server?.requests).toHaveLength(0);
  });

  it("asks for the number when a rule is in force from two files, and says where the same rule still comes from", async () => {
    const { box, env } = await setup(
      {
        ".panto/config.json": { permissions: { allow: ["WebSearch"] } },
        ".panto/config.local.json": { permissions: { allow: ["WebSearch"] } },
      },
      [],
    );
    const project = join(box.project, ".panto", "config.json");
    const local = join(box.project, ".panto", "config.local.json");
    const command = (text: string) => runPanto(["-m", MODEL, "-p", text], { cwd: box.project, env });
    const both = await command("/permissions remove WebSearch");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain(
      `WebSearch is in force 2 times: 1 (permissions.allow[0] in ${project}), 2 (permissions.allow[0] in ${local}); remove one by its number`,
    );
    const second = await command("/permissions remove 2");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      `Removed WebSearch (permissions.allow[0]) from ${local}: no longer in force. The same allow rule still comes from permissions.allow[0] in ${project}.`,
    );
    expect(JSON.parse(await readFile(project, "utf8"))).toEqual({ permissions: { allow: ["WebSearch"] } });
  });

  it("reports the removal as done.text in JSON mode, the rule out of the file", async () => {
    const { box, env } = await setup(
      { ".panto/config.local.json": { permissions: { ask: ["Bash(git push:*)"] } } },
      [],
    );
    const run = await runPanto(["-m", MODEL, "--json", "-p", "/permissions remove Bash(git push:*)"], {
      cwd: box.project,
      env,
    });
    expect(run.code).toBe(0);
    const local = join(box.project, ".panto", "config.local.json");
    expect(jsonLines(run.stdout).find((event) => event.type === "done")).toMatchObject({
      exit_code: 0,
      text: `Removed Bash(git push:*) (permissions.ask[0]) from ${local}: no longer in force.`,
    });
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({});
  });
});

describe("what the managed settings pin", () => {
  it("refuses a looser --sandbox than the managed mode, naming the file, and allows a stricter one", async () => {
    const { box, env } = await setup({ [join("..", "managed.json")]: { sandbox: "workspace-write" } }, []);
    const looser = await runPanto(["-m", MODEL, "--sandbox", "full", "-p", "hi"], { cwd: box.project, env });
    expect(looser.code).toBe(2);
    expect(looser.stderr).toContain(
      `the managed settings (${join(box.root, "managed.json")}) pin the sandbox to "workspace-write"`,
    );
    expect(server?.requests).toHaveLength(0);
    const stricter = await runPanto(["-m", MODEL, "--sandbox", "read-only", "-p", "/permissions"], {
      cwd: box.project,
      env,
    });
    expect(stricter.code).toBe(0);
  });

  it("starts only the MCP servers the managed allowlist names, whatever the project configures", async () => {
    const { box, env } = await setup(
      {
        ".panto/config.json": {
          mcp_servers: { shady: { command: "/nonexistent/shady-server" } },
          allowed_mcp_servers: ["shady"],
        },
        [join("..", "managed.json")]: { allowed_mcp_servers: ["github"] },
      },
      [],
    );
    const run = await runPanto(["-m", MODEL, "-p", "/mcp"], { cwd: box.project, env });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `MCP server "shady" not started: it is not in allowed_mcp_servers (${join(box.root, "managed.json")})`,
    );
  });
});
