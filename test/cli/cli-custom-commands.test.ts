import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { PANTO_MAIN, runPanto, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** A user command and a project command of the same name, and a file the project's attaches. */
async function overriddenReview(box: Sandbox): Promise<void> {
  await put(
    join(box.home, "commands", "review.md"),
    "---\ndescription: the user's review\n---\nUSER REVIEW of $ARGUMENTS\n",
  );
  await put(
    join(box.project, ".panto", "commands", "review.md"),
    [
      "---",
      "description: Review one file for a concern",
      "argument-hint: [file] [concern]",
      "---",
      "Review @$1 for $2 problems.",
      "Everything typed: $ARGUMENTS",
      "",
    ].join("\n"),
  );
  await put(join(box.project, "notes.txt"), "NOTE LINE 42: the cache is never invalidated\n");
}

/** The text of the last user message the server received (Anthropic shape). */
function lastUserText(server: FakeServer): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  const content = body.messages.filter((message) => message.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("");
}

describe("custom commands (built CLI against a fake Anthropic server)", { timeout: 120_000 }, () => {
  it("-p: the project's command overrides the user's, fills in $1, $2 and $ARGUMENTS, and attaches @file", async () => {
    const { box, server, env } = await start();
    await overriddenReview(box);
    server.enqueue({ type: "text", text: "The cache is never invalidated (notes.txt line 1)." });
    const result = await runPanto(["-m", MODEL, "-p", "/review notes.txt caching"], {
      cwd: box.project,
      env,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The cache is never invalidated (notes.txt line 1).\n");
    const sent = lastUserText(server);
    expect(sent).toContain("Review @notes.txt for caching problems.\nEverything typed: notes.txt caching");
    expect(sent).toContain('<file path="notes.txt">\nNOTE LINE 42: the cache is never invalidated\n');
    expect(sent).not.toContain("USER REVIEW");
  });

  it("-p: the user's command runs where the project has none, its arguments appended when it has no placeholder", async () => {
    const { box, server, env } = await start();
    await put(join(box.home, "commands", "standup.md"), "Write my stand-up note from the git log.\n");
    server.enqueue({ type: "text", text: "note written" });
    const result = await runPanto(["-m", MODEL, "-p", "/standup keep it short"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(lastUserText(server)).toBe("Write my stand-up note from the git log.\n\nkeep it short");
    const help = await runPanto(["-p", "/help"], { cwd: box.project, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\/standup\s+Write my stand-up note from the git log\. \(user\)/);
  });

  it("a missing @file sends nothing and names the command's file", async () => {
    const { box, server, env } = await start();
    await overriddenReview(box);
    const result = await runPanto(["-m", MODEL, "-p", "/review missing.txt caching"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(join(box.project, ".panto", "commands", "review.md"));
    expect(result.stderr).toContain("@missing.txt: no such file");
    expect(server.requests).toHaveLength(0);
  });

  it("reads .claude/commands, warns about each broken file by name, line and key, refuses a built-in's name, and still loads the rest", async () => {
    const { box, server, env } = await start();
    const commands = join(box.project, ".panto", "commands");
    await put(
      join(commands, "bad-yaml.md"),
      "---\ndescription: fine\nallowed-tools: [read, edit\nmodel: x\n---\nbody\n",
    );
    await put(
      join(commands, "bad-key.md"),
      "---\nargument-hint: [file]\ndescription:\n  nested: map\n---\nbody\n",
    );
    await put(join(commands, "unclosed.md"), "---\ndescription: never closed\nbody\n");
    await put(join(commands, "compact.md"), "---\ndescription: my compact\n---\nsummarise\n");
    await put(
      join(box.project, ".claude", "commands", "explain.md"),
      "---\ndescription: Explain code\nargument-hint: [path] [depth]\nallowed-tools: Read, Grep, Bash(git log:*)\n---\nExplain $1 at depth $2.\n",
    );
    server.enqueue({ type: "text", text: "explained" });
    const result = await runPanto(["-m", MODEL, "-p", "/explain src/app.ts deep"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("explained\n");
    expect(lastUserText(server)).toBe("Explain src/app.ts at depth deep.");
    const warnings = result.stderr.split("\n").filter((line) => line.includes("warning:"));
    expect(warnings).toHaveLength(4);
    expect(result.stderr).toContain(`${join(commands, "bad-yaml.md")}:4: invalid YAML front matter`);
    expect(result.stderr).toContain(
      `${join(commands, "bad-key.md")}:3: "description" must be text; the command is not loaded`,
    );
    expect(result.stderr).toContain(
      `${join(commands, "unclosed.md")}:1: the front matter opened by --- on line 1 is never closed`,
    );
    expect(result.stderr).toContain(
      `${join(commands, "compact.md")}: /compact is a built-in command (/compact); this custom command is ignored`,
    );
    const broken = await runPanto(["-m", MODEL, "-p", "/bad-key x"], { cwd: box.project, env });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain("unknown command /bad-key");
  });

  it("front matter model answers this command alone, and allowed-tools run without a question while it runs", async () => {
    const { box, server, env } = await start();
    await put(
      join(box.project, ".panto", "commands", "jot.md"),
      "---\ndescription: Jot a note\nmodel: anthropic/claude-haiku-4-5\nallowed-tools: [Write]\n---\nWrite $ARGUMENTS to jot.txt\n",
    );
    const session = join(box.project, "s.jsonl");
    const run = (prompt: string) =>
      runPanto(["-m", MODEL, "--session", session, "-p", prompt], { cwd: box.project, env });
    const write = {
      type: "tool-calls" as const,
      calls: [{ name: "write", arguments: { path: "jot.txt", content: "milk" } }],
    };
    server.enqueue(write, { type: "text", text: "jotted" });
    const jotted = await run("/jot milk");
    expect(jotted.code, jotted.stderr).toBe(0);
    expect(jotted.stderr).not.toContain("denied");
    expect(await readFile(join(box.project, "jot.txt"), "utf8")).toBe("milk");
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "claude-haiku-4-5",
      "claude-haiku-4-5",
    ]);
    // Outside the command: the session's model, and write is asked about (denied in print mode) again.
    server.enqueue(write, { type: "text", text: "not written" });
    // Resumed without -m: the session's model is still the one it had before the command.
    const plain = await runPanto(["--session", session, "-p", "write milk again"], { cwd: box.project, env });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain("denied write");
    expect((server.requests.at(-1)?.body as { model?: string } | undefined)?.model).toBe("claude-sonnet-4-5");
  });

  it("--max-turns stops a command's prompt as it stops any prompt: exit 3 and a max_turns error", async () => {
    const { box, server, env } = await start();
    await put(
      join(box.project, ".panto", "commands", "look.md"),
      "---\ndescription: Look around\n---\nList the files\n",
    );
    const listing = {
      type: "tool-calls" as const,
      calls: [{ name: "ls", arguments: { path: "." } }],
    };
    server.enqueue(listing);
    const print = await runPanto(["-m", MODEL, "--max-turns", "1", "-p", "/look"], { cwd: box.project, env });
    expect(print.code, print.stderr).toBe(3);
    expect(print.stderr).toContain("/look: stopped after 1 model request (--max-turns 1)");
    expect(server.requests).toHaveLength(1);

    server.enqueue(listing, listing, { type: "text", text: "never reached" });
    const json = await runPanto(["-m", MODEL, "--max-turns", "2", "--json", "-p", "/look"], {
      cwd: box.project,
      env,
    });
    expect(json.code, json.stderr).toBe(3);
    const events = json.stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { type: string; code?: string; exit_code?: number });
    expect(events.find((event) => event.type === "error")).toMatchObject({ code: "max_turns" });
    expect(events.at(-1)).toMatchObject({ type: "done", exit_code: 3 });
    expect(server.requests).toHaveLength(3);
  });

  it("in the terminal: /help lists them, Tab completes, did-you-mean finds them, and the project's runs with its @file", async () => {
    const { box, server, env } = await start();
    await overriddenReview(box);
    const terminal = closeAfter(
      await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL], {
        cwd: box.project,
        env,
        rows: 60,
      }),
    );
    await terminal.waitFor(/Ctrl-D exits/);
    await terminal.type("/help");
    await terminal.press("Enter");
    const help = await terminal.waitFor(
      /\/review \[file\] \[concern\]\s+Review one file for a concern \(project\)/,
    );
    expect(help).not.toContain("the user's review");
    await terminal.type("/reviw x");
    await terminal.press("Enter");
    await terminal.waitFor(/unknown command \/reviw; did you mean \/review\?/);
    server.enqueue({ type: "text", text: "FOUND: stale cache" });
    await terminal.type("/rev");
    await terminal.press("Tab");
    await terminal.waitFor(/> \/review$/m);
    await terminal.type("notes.txt caching");
    await terminal.press("Enter");
    await terminal.waitFor(/FOUND: stale cache/);
    const sent = lastUserText(server);
    expect(sent).toContain("Review @notes.txt for caching problems.");
    expect(sent).toContain('<file path="notes.txt">\nNOTE LINE 42');
    await terminal.type("/exit");
    await terminal.press("Enter");
    expect(await terminal.exitStatus()).toBe(0);
  });
});
