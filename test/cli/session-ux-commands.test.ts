import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionDirectory } from "../../src/session/index.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { jsonLines, PANTO_MAIN, runPanto, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const LISTED = ["claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-5"];
const { start, closeAfter } = useAnthropicSandboxes("k");
const setup = () => start({ models: LISTED, responder: () => ({ type: "text", text: "ok answer" }) });

async function launch(
  box: Sandbox,
  env: NodeJS.ProcessEnv,
  args: string[] = ["-m", MODEL],
): Promise<TmuxTerminal> {
  const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN, ...args], {
    cwd: box.project,
    env,
    rows: 50,
  });
  closeAfter(terminal);
  await terminal.waitFor(/Ctrl-D exits/);
  return terminal;
}

async function enter(terminal: TmuxTerminal, text: string): Promise<void> {
  await terminal.type(text);
  await terminal.press("Enter");
}

/** Model requests only (the list endpoint's GETs left out). */
function messageRequests(server: FakeServer) {
  return server.requests.filter((request) => request.method === "POST");
}

function lastBody(server: FakeServer): {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
} {
  return messageRequests(server).at(-1)?.body as {
    model: string;
    messages: Array<{ role: string; content: unknown }>;
  };
}

describe("/model with the provider's model list (built CLI in tmux)", { timeout: 120_000 }, () => {
  it("lists, refuses an unknown name with the nearest ones, completes with Tab, and the choice survives resume", async () => {
    const { box, server, env } = await setup();
    const terminal = await launch(box, env);
    await enter(terminal, "/model");
    const listing = await terminal.waitFor(/anthropic lists 3:[\s\S]*switches/);
    expect(listing).toContain("* anthropic/claude-sonnet-4-5");
    expect(listing).toContain("  anthropic/claude-haiku-4-5");

    await enter(terminal, "/model anthropic/claude-nonexistent-9");
    const refused = await terminal.waitFor(/Nearest: .*/);
    expect(refused).toContain("unknown model anthropic/claude-nonexistent-9: anthropic does not list it");
    expect(/Nearest: (.*)/.exec(refused)?.[1]?.split(", ").sort()).toEqual(
      LISTED.map((name) => `anthropic/${name}`).sort(),
    );

    await terminal.type("/model claude-hai");
    await terminal.press("Tab");
    await terminal.waitFor(/> \/model anthropic\/claude-haiku-4-5/);
    await terminal.press("Enter");
    await terminal.waitFor(/Model: anthropic\/claude-haiku-4-5/);
    await enter(terminal, "hello");
    await terminal.waitFor(/ok answer/);
    expect(lastBody(server).model).toBe("claude-haiku-4-5");
    // The list was asked once; the refusal and the completion reused it.
    expect(server.requests.filter((request) => request.method === "GET")).toHaveLength(1);
    await enter(terminal, "/exit");
    expect(await terminal.exitStatus()).toBe(0);
    const id = /Resume it with: panto -r (\S+)/.exec(await terminal.screen())?.[1] ?? "";

    const resumed = await runPanto(["-r", id, "-p", "again"], { cwd: box.project, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("panto: model anthropic/claude-haiku-4-5 restored from the session");
    // An informational note, not a warning (issue 42).
    expect(resumed.stderr).not.toContain("warning");
    expect(lastBody(server).model).toBe("claude-haiku-4-5");
    const asJson = await runPanto(["-c", "--json", "-p", "and in JSON"], { cwd: box.project, env });
    expect(asJson.code).toBe(0);
    const events = jsonLines(asJson.stdout);
    expect(events).toContainEqual({
      type: "notice",
      message: "model anthropic/claude-haiku-4-5 restored from the session",
    });
    expect(events.filter((event) => event.type === "warning")).toEqual([]);
    expect(asJson.stderr).not.toContain("warning");

    const overridden = await runPanto(["-r", id, "-m", MODEL, "-p", "once more"], { cwd: box.project, env });
    expect(overridden.code).toBe(0);
    expect(overridden.stderr).toContain(`-m ${MODEL} replaces anthropic/claude-haiku-4-5`);
    expect(lastBody(server).model).toBe("claude-sonnet-4-5");
  });
});

describe("models chosen and refused (built CLI)", { timeout: 60_000 }, () => {
  it("uses the documented default model for a provider key in the environment, and names it", async () => {
    const { box, server, env } = await setup();
    const result = await runPanto(["-p", "hi"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("using anthropic/claude-sonnet-4-5 because ANTHROPIC_API_KEY is set");
    expect(lastBody(server).model).toBe("claude-sonnet-4-5");
  });

  it("says a model the provider does not know is unknown, and how to list and switch", async () => {
    const { box, server, env } = await setup();
    server.enqueue({
      type: "error",
      status: 404,
      body: '{"type":"error","error":{"type":"not_found_error","message":"model: claude-nonexistent-9"}}',
    });
    const result = await runPanto(["-m", "anthropic/claude-nonexistent-9", "-p", "hi"], {
      cwd: box.project,
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("invalid_request");
    expect(result.stderr).toContain("/model lists the models it offers; /model PROVIDER/MODEL switches");
  });

  it("answers a mistyped slash command with the nearest one", async () => {
    const { box, env } = await setup();
    const result = await runPanto(["-m", MODEL, "-p", "/compat"], { cwd: box.project, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown command /compat; did you mean /compact?");
  });

  it("/init asks the model to write AGENTS.md, and reports that it was written", async () => {
    const { box, server, env } = await setup();
    server.enqueue(
      {
        type: "tool-calls",
        calls: [{ name: "write", arguments: { path: "AGENTS.md", content: "# Agents\nRun npm test.\n" } }],
      },
      { type: "text", text: "Wrote AGENTS.md." },
    );
    const result = await runPanto(["-m", MODEL, "--allow-tools", "-p", "/init"], { cwd: box.project, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`/init: wrote ${join(box.project, "AGENTS.md")}`);
    expect(await readFile(join(box.project, "AGENTS.md"), "utf8")).toBe("# Agents\nRun npm test.\n");
    expect(JSON.stringify(messageRequests(server)[0]?.body)).toContain("Write an AGENTS.md at");
    // The project's own settings file stays out of commits (issue 39).
    expect(result.stdout).toContain(`Added .panto/config.local.json to ${join(box.project, ".gitignore")}`);
    expect(await readFile(join(box.project, ".gitignore"), "utf8")).toBe(".panto/config.local.json\n");
    server.enqueue({ type: "text", text: "Nothing to change." });
    const again = await runPanto(["-m", MODEL, "--allow-tools", "-p", "/init"], { cwd: box.project, env });
    expect(again.stdout).not.toContain("Added .panto/config.local.json");
    expect(await readFile(join(box.project, ".gitignore"), "utf8")).toBe(".panto/config.local.json\n");
  });
});

describe("interrupts, ! and @ in the interactive session (built CLI in tmux)", { timeout: 120_000 }, () => {
  it("Ctrl-C mid-stream keeps the prompt and the partial answer, and /context shows them", async () => {
    const { box, server, env } = await setup();
    // A finished line, so the renderer shows it at once (it holds an unfinished one to wrap it).
    server.enqueue({ type: "hang", afterText: "The parser splits dates\n" });
    const terminal = await launch(box, env);
    await enter(terminal, "explain the parser");
    await terminal.waitFor(/The parser splits dates/);
    await terminal.press("C-c");
    await terminal.waitFor(/cancelled: your prompt and the answer so far stay in the context/);
    await enter(terminal, "/context");
    const context = await terminal.waitFor(/\[turn 1\][\s\S]*assistant: .*\(interrupted\)/);
    expect(context).toContain("user: explain the parser");
    expect(context).toContain("assistant: The parser splits dates (interrupted)");
    await enter(terminal, "go on");
    await terminal.waitFor(/ok answer/);
    const sent = JSON.stringify(lastBody(server).messages);
    expect(sent).toContain("explain the parser");
    expect(sent).toContain("The parser splits dates");
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
  });

  it("SIGHUP mid-stream (the terminal closed) keeps the prompt and the partial answer as Ctrl-C does (issue 42)", async () => {
    const { box, server, env } = await setup();
    server.enqueue({ type: "hang", afterText: "The parser splits dates\n" });
    // The shell outlives the hang-up (a trap, which panto does not inherit) to record panto's status.
    const status = join(box.root, "status");
    const command = `trap 'true' HUP; '${process.execPath}' '${PANTO_MAIN}' -m ${MODEL}; echo $? > '${status}'`;
    const terminal = closeAfter(await TmuxTerminal.start(["sh", "-c", command], { cwd: box.project, env }));
    await terminal.waitFor(/Ctrl-D exits/);
    await enter(terminal, "explain the parser");
    await terminal.waitFor(/The parser splits dates/);
    // Closing the terminal hangs it up: the process in it gets SIGHUP and its tty goes away.
    await terminal.close();
    const folder = sessionDirectory(box.home, box.project);
    const entries = async () => {
      const names = (await readdir(folder)).filter(
        (name) => name.endsWith(".jsonl") && name !== "index.jsonl",
      );
      const text = names.length === 1 ? await readFile(join(folder, names[0] ?? ""), "utf8") : "";
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    };
    const assistantOf = (list: Array<Record<string, unknown>>) =>
      list.find((entry) => (entry.message as { role?: string } | undefined)?.role === "assistant");
    // Written as the process ends: wait for it (the test's own timeout bounds the wait).
    let written = await entries();
    while (assistantOf(written) === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      written = await entries();
    }
    const answer = assistantOf(written)?.message as { content: unknown; stopReason: string };
    expect(answer.stopReason).toBe("aborted");
    expect(JSON.stringify(answer.content)).toContain("The parser splits dates");
    expect(JSON.stringify(written)).toContain("explain the parser");
    // It ended on its own terms (129), not by the signal or an abort on the dead terminal.
    let code = await readFile(status, "utf8").catch(() => "");
    while (code === "") {
      await new Promise((resolve) => setTimeout(resolve, 100));
      code = await readFile(status, "utf8").catch(() => "");
    }
    expect(code.trim()).toBe("129");
    // The session goes on from there, the partial answer in its context.
    const resumed = await runPanto(["-m", MODEL, "-c", "-p", "go on"], { cwd: box.project, env });
    expect(resumed.code).toBe(0);
    expect(JSON.stringify(lastBody(server).messages)).toContain("The parser splits dates");
  });

  it("!COMMAND runs and joins the context; @PATH attaches a file, and a missing one sends nothing", async () => {
    const { box, server, env } = await setup();
    await writeFile(join(box.project, "math.ts"), "export const add = (a: number, b: number) => a + b;\n");
    const terminal = await launch(box, env);
    await enter(terminal, "!echo hi-from-shell");
    await terminal.waitFor(/now in the conversation/);
    expect(await terminal.screen()).toMatch(/\$ echo hi-from-shell\n[\s\S]*hi-from-shell/);
    await enter(terminal, "what does @nope.ts do?");
    await terminal.waitFor(/@nope\.ts: no such file .*nothing was sent/);
    expect(messageRequests(server)).toHaveLength(0);
    await terminal.type("explain @ma");
    await terminal.press("Tab");
    await terminal.waitFor(/> explain @math\.ts/);
    await terminal.press("Enter");
    await terminal.waitFor(/ok answer/);
    expect(messageRequests(server)).toHaveLength(1);
    const sent = JSON.stringify(lastBody(server).messages);
    expect(sent).toContain("$ echo hi-from-shell\\nhi-from-shell");
    expect(sent).toContain('<file path=\\"math.ts\\">\\nexport const add');
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
  });
});
