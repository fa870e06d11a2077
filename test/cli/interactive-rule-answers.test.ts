import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { FakeTerminal } from "./fake-terminal.js";
import { MODEL, startInteractive } from "./interactive-harness.js";
import { makeSandbox, PANTO_MAIN } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * "Always" as a permission rule in a real terminal (tmux): the built CLI against a fake Anthropic
 * server, with the sandbox off so that commands are asked about.
 */
const { start, closeAfter } = useAnthropicSandboxes("test-key");

async function openTerminal(project: string, env: NodeJS.ProcessEnv): Promise<TmuxTerminal> {
  const terminal = closeAfter(
    await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "--sandbox", "full"], {
      cwd: project,
      env,
      columns: 160,
      rows: 50,
    }),
  );
  await terminal.waitFor(/Ctrl-D exits/);
  return terminal;
}

/** The text of the tool results in the request the server received last. */
function lastToolResults(server: FakeServer): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages.at(-1)?.content);
}

const bash = (command: string) => ({
  type: "tool-calls" as const,
  calls: [{ name: "bash", arguments: { command } }],
});

describe("answering 'always' with a rule in a real terminal", { timeout: 90_000 }, () => {
  it("shows the rule as it will be written and where it can go, saves it to the project's local file, and a later matching call runs without a question, in this session and the next, until /permissions remove takes it out", async () => {
    const { box, server, env } = await start();
    const local = join(box.project, ".panto", "config.local.json");
    server.enqueue(bash("git diff"), { type: "text", text: "first done" });
    const terminal = await openTerminal(box.project, env);
    await terminal.type("run the tests");
    await terminal.press("Enter");
    const question = await terminal.waitFor(/Allow\? .*:$/m);
    expect(question).toContain("[a]lways (save a rule)");
    await terminal.type("a");
    const places = await terminal.waitFor(/Keep it where\? .*:$/m);
    expect(places).toContain("always allow Bash(git diff:*)");
    expect(places).toContain("[s] for this session only (Enter)");
    expect(places).toContain(`[l] in this project's local file, not committed: ${local}`);
    expect(places).toContain(`[u] in your user config, every project: ${join(box.home, "config.json")}`);
    await terminal.type("l");
    const saved = await terminal.waitFor(/first done/);
    expect(saved).toContain(`allowed from now on: Bash(git diff:*) (saved to ${local})`);
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({
      permissions: { allow: ["Bash(git diff:*)"] },
    });

    // The same session: a call the rule covers runs without a question.
    server.enqueue(bash("git diff -- src"), { type: "text", text: "second done" });
    await terminal.type("again");
    await terminal.press("Enter");
    const again = await terminal.waitFor(/second done/);
    expect(again.match(/Allow\?/g)).toHaveLength(1);
    // It ran (git's own answer, outside a repository, with its exit code), and was not refused.
    expect(lastToolResults(server)).toMatch(/Exit code: \d+/);
    expect(lastToolResults(server)).not.toContain("did not allow");
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);

    // A new session in the same project reads the rule from the local file.
    server.enqueue(bash("git diff --stat"), { type: "text", text: "third done" });
    const next = await openTerminal(box.project, env);
    await next.type("once more");
    await next.press("Enter");
    const third = await next.waitFor(/third done/);
    expect(third).not.toMatch(/Allow\?/);
    expect(lastToolResults(server)).toMatch(/Exit code: \d+/);
    expect(lastToolResults(server)).not.toContain("did not allow");
    await next.type("/permissions");
    await next.press("Enter");
    const listed = await next.waitFor(/Remove one with/);
    expect(listed).toMatch(
      /1\. Bash\(git diff:\*\)\s+local\s+permissions\.allow\[0\] in .*config\.local\.json/,
    );

    // Removed: out of the file and out of force at once, so the next such call is asked again.
    await next.type("/permissions remove 1");
    await next.press("Enter");
    await next.waitFor(/Removed Bash\(git diff:\*\) \(permissions\.allow\[0\]\) from .*config\.local\.json/);
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({});
    server.enqueue(bash("git diff HEAD"), { type: "text", text: "fourth done" });
    await next.type("and again");
    await next.press("Enter");
    await next.waitFor(/git diff HEAD[\s\S]*Allow\? .*:$/m);
    await next.type("n");
    await next.waitFor(/why not\?.*:$/m);
    await next.press("Enter");
    await next.waitFor(/fourth done/);
  });
});

describe("answering 'always' with a rule (in process)", { timeout: 60_000 }, () => {
  it("reminds of s, l and u after another key, and u saves the rule to the user config, leaving the project alone", async () => {
    const box = await makeSandbox();
    const { terminal, exit, server } = await startInteractive(box);
    closeAfter(server);
    server.enqueue(
      { type: "tool-calls", calls: [{ name: "write", arguments: { path: "docs/a.md", content: "x" } }] },
      { type: "text", text: "written" },
      { type: "tool-calls", calls: [{ name: "write", arguments: { path: "docs/b.md", content: "y" } }] },
      { type: "text", text: "written again" },
    );
    terminal.type("write it\r");
    let seen = await terminal.waitFor("Allow? ");
    terminal.type("a");
    seen = await terminal.waitFor("Keep it where? ", seen);
    terminal.type("x");
    seen = await terminal.waitFor(
      "answer s or Enter (this session only), l (the project's local file) or u (your user config)",
      seen,
    );
    terminal.type("u");
    const user = join(box.home, "config.json");
    seen = await terminal.waitFor(`allowed from now on: Edit(./docs/**) (saved to ${user})`, seen);
    seen = await terminal.waitForAnswer("written", seen);
    expect(JSON.parse(await readFile(user, "utf8"))).toEqual({ permissions: { allow: ["Edit(./docs/**)"] } });
    await expect(readFile(join(box.project, ".panto", "config.local.json"), "utf8")).rejects.toThrow();
    terminal.type("more\r");
    const before = seen;
    seen = await terminal.waitForAnswer("written again", seen);
    expect(terminal.screen.slice(before, seen)).not.toContain("Allow?");
    terminal.type("\u0004");
    expect(await exit).toBe(0);
  });

  it("reads the answers as lines where stdin is not a terminal: a, then l saves to the project's local file", async () => {
    const box = await makeSandbox();
    const lines = new FakeTerminal();
    lines.stdin.isTTY = false;
    const { terminal, exit, server } = await startInteractive(box, {}, lines);
    closeAfter(server);
    server.enqueue(
      { type: "tool-calls", calls: [{ name: "write", arguments: { path: "a.txt", content: "x" } }] },
      { type: "text", text: "written" },
    );
    terminal.type("write it\n");
    let seen = await terminal.waitFor("Allow? ");
    terminal.type("a\n");
    seen = await terminal.waitFor("Keep it where? ", seen);
    terminal.type("l\n");
    const local = join(box.project, ".panto", "config.local.json");
    seen = await terminal.waitForAnswer("written", seen);
    expect(JSON.parse(await readFile(local, "utf8"))).toEqual({ permissions: { allow: ["Edit(./a.txt)"] } });
    lines.stdin.end();
    expect(await exit).toBe(0);
  });
});
