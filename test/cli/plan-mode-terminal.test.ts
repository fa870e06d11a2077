import { describe, expect, it } from "vitest";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { PANTO_MAIN } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

// Plan mode in the interactive terminal under a real pseudo-terminal (tmux): Shift+Tab steps the
// modes, a plan-mode answer is followed by the question whether to accept the plan, and y leaves
// plan mode for the mode before it.

const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");

describe("plan mode in the terminal (built CLI, tmux)", { timeout: 90_000 }, () => {
  it("Shift+Tab steps ask → accept edits → plan; after the plan, y accepts it and returns to accept edits", async () => {
    const { box, server, env } = await start({ responder: () => ({ type: "text", text: "PLAN: step one" }) });
    const terminal = closeAfter(
      await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "--sandbox", "full"], {
        cwd: box.project,
        env,
      }),
    );
    await terminal.waitFor(/\/help for commands[\s\S]*> ?$/);
    await terminal.press("BTab");
    await terminal.waitFor(/mode: accept edits/);
    await terminal.press("BTab");
    await terminal.waitFor(/plan mode on: .*\(\/plan off: back to accept edits\)/);
    await terminal.type("plan the change");
    await terminal.press("Enter");
    await terminal.waitFor(/PLAN: step one[\s\S]*Accept the plan and leave plan mode\? \(y\/N\)/);
    expect(JSON.stringify(server.requests[0]?.body)).toContain("Plan mode is on");
    await terminal.type("y");
    const screen = await terminal.waitFor(/plan mode off: back to accept edits[\s\S]*> ?$/);
    expect(screen).toContain("No task list is in force");
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
  });
});
