import { describe, expect, it } from "vitest";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { PANTO_MAIN, runPanto } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");
const setup = () => start({ responder: () => ({ type: "text", text: "on it" }) });

describe("habits users bring from other agents (built CLI)", { timeout: 90_000 }, () => {
  it('panto "PROMPT" in a terminal starts the interactive session with that prompt sent', async () => {
    const { box, server, env } = await setup();
    const terminal = closeAfter(
      await TmuxTerminal.start(
        [process.execPath, PANTO_MAIN, "-m", MODEL, "--sandbox", "full", "fix the tests"],
        {
          cwd: box.project,
          env,
        },
      ),
    );
    const screen = await terminal.waitFor(/on it[\s\S]*\n> ?$/);
    expect(screen).toContain("> fix the tests");
    expect(JSON.stringify(server.requests[0]?.body)).toContain("fix the tests");
    // Still interactive: a second prompt goes to the same session.
    await terminal.type("and the docs");
    await terminal.press("Enter");
    await terminal.waitFor(/on it[\s\S]*on it/);
    expect(JSON.stringify(server.requests[1]?.body)).toContain("fix the tests");
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
  });

  it('panto "PROMPT" without a terminal runs it as -p does', async () => {
    const { box, server, env } = await setup();
    const result = await runPanto(["-m", MODEL, "--sandbox", "full", "fix the tests"], {
      cwd: box.project,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("on it\n");
    expect(server.requests).toHaveLength(1);
  });

  it("panto help and panto help COMMAND show help on stdout, exit 0; an unknown command exits 2 naming the known ones", async () => {
    const { box, env } = await setup();
    const general = await runPanto(["help"], { cwd: box.project, env });
    expect(general.code).toBe(0);
    expect(general.stdout).toContain("Usage: panto [options] [command] [prompt...]");
    const exportHelp = await runPanto(["help", "export"], { cwd: box.project, env });
    expect(exportHelp.code).toBe(0);
    expect(exportHelp.stdout).toContain("Usage: panto export [options] [session]");
    const unknown = await runPanto(["help", "nope"], { cwd: box.project, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "nope"; the commands are demo, sessions');
  });
});
