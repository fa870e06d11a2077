import { describe, expect, it } from "vitest";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { todoCall } from "../support/tool-calls.js";
import { PANTO_MAIN, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * The task list where the user looks, in a real pseudo-terminal (tmux) running the built CLI
 * against the fake Anthropic server: the list printed as a todo call changes it, its count in the
 * status line while panto works and after each answer, and both again when the session is resumed.
 */
const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");

async function launch(box: Sandbox, env: NodeJS.ProcessEnv, args: string[] = []): Promise<TmuxTerminal> {
  const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, ...args], {
    cwd: box.project,
    env,
    rows: 50,
  });
  closeAfter(terminal);
  await terminal.waitFor(/Ctrl-D exits/);
  return terminal;
}

describe("the task list in the terminal (built CLI in tmux)", { timeout: 120_000 }, () => {
  it("prints the list when a todo call changes it, counts it in the status line while working and after each answer, and again on resume", async () => {
    // Each answer waits a while before its first byte, so the status line can be read meanwhile.
    const { box, server, env } = await start({ firstByteDelayMs: 1500 });
    server.enqueue(
      todoCall("toolu_1", [
        { content: "Read the parser", status: "completed" },
        { content: "Fix the parser", status: "in_progress" },
        { content: "Run the tests", status: "pending", evidence: "npm test" },
      ]),
    );
    server.enqueue({ type: "text", text: "Working on it." });
    const terminal = await launch(box, env);
    await terminal.type("fix the parser");
    await terminal.press("Enter");
    // While the next request waits: the list above, the count beside the clock.
    const working = await terminal.waitFor(/waiting for [^\n]* · tasks 1\/3 · Ctrl-C cancels/);
    expect(working).toMatch(
      /Task list: 1 of 3 completed\n1\. completed: Read the parser\n2\. in progress: Fix the parser\n3\. pending: Run the tests\n {3}evidence: npm test/,
    );
    expect(working).toMatch(/waiting for anthropic\/claude-sonnet-4-5… · \d+s · tasks 1\/3 · Ctrl-C cancels/);
    const answered = await terminal.waitFor(/Working on it\.\ncontext [^\n]* · tasks 1\/3\n>/);
    // The status row was cleared once the answer came; the count moved to the line after it.
    expect(answered).not.toMatch(/· tasks 1\/3 · Ctrl-C cancels/);

    // A second call: one more done, and a cancelled item that counts in neither figure.
    server.enqueue(
      todoCall("toolu_2", [
        { content: "Read the parser", status: "completed" },
        { content: "Fix the parser", status: "completed" },
        { content: "Run the tests", status: "in_progress", evidence: "npm test" },
        { content: "Rewrite the lexer", status: "cancelled" },
      ]),
    );
    server.enqueue({ type: "text", text: "Parser fixed." });
    await terminal.type("go on");
    await terminal.press("Enter");
    const again = await terminal.waitFor(/waiting for [^\n]* · tasks 2\/3 · Ctrl-C cancels/);
    expect(again).toMatch(/Task list: 2 of 3 completed\n(?:.*\n)*4\. cancelled: Rewrite the lexer/);
    await terminal.waitFor(/Parser fixed\.\ncontext [^\n]* · tasks 2\/3\n>/);
    await terminal.type("/exit");
    await terminal.press("Enter");
    expect(await terminal.exitStatus()).toBe(0);

    // Resumed: the banner says the list is in force, and the status line counts it from the start.
    server.enqueue({ type: "text", text: "Still here." });
    const resumed = await launch(box, env, ["-c"]);
    expect(await resumed.screen()).toMatch(/tasks 2\/3 in the task list in force \(\/todo shows it\)/);
    await resumed.type("where are we?");
    await resumed.press("Enter");
    await resumed.waitFor(/waiting for anthropic\/claude-sonnet-4-5… · \d+s · tasks 2\/3 · Ctrl-C cancels/);
    await resumed.waitFor(/Still here\.\ncontext [^\n]* · tasks 2\/3\n>/);
  });

  it("shows no count while no list is in force", async () => {
    const { box, server, env } = await start();
    server.enqueue({ type: "text", text: "Plain answer." });
    const terminal = await launch(box, env);
    await terminal.type("hello");
    await terminal.press("Enter");
    const screen = await terminal.waitFor(/Plain answer\.\ncontext [^\n]*\n>/);
    expect(screen).not.toMatch(/tasks \d/);
  });
});
