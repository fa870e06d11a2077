import { existsSync } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { CliOptions } from "../../src/frontends/shared/cli-options.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import type { FakeTerminal } from "./fake-terminal.js";
import { lastUserText as lastUserTextOf, MODEL, startInteractive } from "./interactive-harness.js";
import { makeSandbox, type Sandbox } from "./panto-process.js";

let server: FakeServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  box: Sandbox,
  options: Partial<CliOptions> = {},
): Promise<{ terminal: FakeTerminal; exit: Promise<number> }> {
  const run = await startInteractive(box, options);
  server = run.server;
  return run;
}

const lastUserText = (): string => lastUserTextOf(server);

describe("interactive mode", { timeout: 60_000 }, () => {
  it("shows a banner, streams answers, runs slash commands, saves history 0600, and exits 0 on Ctrl-D", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    expect(terminal.screen).toContain(`model ${MODEL}`);
    expect(terminal.screen).toContain("(new: the file is written with the first message)");
    server?.enqueue({ type: "text", text: "Streamed answer one." });
    terminal.type("question one\r");
    let seen = await terminal.waitForAnswer("Streamed answer one.");
    terminal.type("/session\r");
    seen = await terminal.waitFor("Session: ", seen);
    // The prompt, the answer, and the run's sandbox entry written with the first prompt.
    await terminal.waitFor("3 entries (no compaction yet)", seen);
    expect(terminal.screen).toMatch(/sandbox: +workspace-write, network off, writable: /);
    terminal.type("\u0004");
    expect(await exit).toBe(0);
    const historyPath = join(box.home, "history");
    expect(await readFile(historyPath, "utf8")).toBe("question one\n/session\n");
    expect((await stat(historyPath)).mode & 0o777).toBe(0o600);
  });

  it("joins a line ending in a backslash with the next, and a multi-line paste into one prompt", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    server?.enqueue({ type: "text", text: "first done" }, { type: "text", text: "second done" });
    terminal.type("line one \\\r");
    await terminal.waitFor("… ");
    terminal.type("line two\r");
    const seen = await terminal.waitForAnswer("first done");
    expect(lastUserText()).toBe("line one \nline two");
    terminal.type("pasted a\rpasted b\r");
    await terminal.waitForAnswer("second done", seen);
    expect(lastUserText()).toBe("pasted a\npasted b");
    expect(server?.requests).toHaveLength(2);
    terminal.type("/exit\r");
    expect(await exit).toBe(0);
  });

  it("asks before a write: y runs it once, a (then Enter: this session) allows what the suggested rule covers for the rest of the session, n denies", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    const write = (path: string) => ({
      type: "tool-calls" as const,
      calls: [{ name: "write", arguments: { path, content: "x" } }],
    });
    server?.enqueue(write("once.txt"), { type: "text", text: "wrote once" });
    terminal.type("write once\r");
    // The question shows what will be written, then asks.
    const question = async (path: string, from: number): Promise<number> =>
      terminal.waitFor("Allow? [y]es once", await terminal.waitFor(`write ${path} (1 line):\n    x\n`, from));
    let seen = await question("once.txt", 0);
    terminal.type("y\r");
    seen = await terminal.waitForAnswer("wrote once", seen);
    expect(existsSync(join(box.project, "once.txt"))).toBe(true);

    server?.enqueue(write("denied.txt"), { type: "text", text: "was denied" });
    terminal.type("write denied\r");
    seen = await question("denied.txt", seen);
    terminal.type("n\r");
    seen = await terminal.waitForAnswer("was denied", seen);
    expect(existsSync(join(box.project, "denied.txt"))).toBe(false);

    server?.enqueue(write("notes/always.txt"), { type: "text", text: "always on" });
    terminal.type("write always\r");
    seen = await question("notes/always.txt", seen);
    terminal.type("a\r");
    seen = await terminal.waitFor("allowed from now on: Edit(./notes/**) (this session)", seen);
    seen = await terminal.waitForAnswer("always on", seen);
    server?.enqueue(write("notes/again.txt"), { type: "text", text: "no question asked" });
    terminal.type("write again\r");
    const beforeAgain = seen;
    seen = await terminal.waitForAnswer("no question asked", seen);
    expect(terminal.screen.slice(beforeAgain, seen)).not.toContain("Allow?");
    expect(existsSync(join(box.project, "notes", "again.txt"))).toBe(true);
    terminal.type("\u0004");
    expect(await exit).toBe(0);
    // Answers to permission questions are not kept as input history.
    expect(await readFile(join(box.home, "history"), "utf8")).toBe(
      "write once\nwrite denied\nwrite always\nwrite again\n",
    );
  });

  it("Ctrl-C cancels a running request and keeps the session usable; twice at an empty prompt exits 130", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    server?.enqueue({ type: "hang" });
    terminal.type("this will hang\r");
    while (server?.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    terminal.type("\u0003");
    let seen = await terminal.waitForAnswer("cancelled");
    server?.enqueue({ type: "text", text: "back to normal" });
    terminal.type("next question\r");
    seen = await terminal.waitForAnswer("back to normal", seen);
    // The cancelled turn is left out of the context the next request carries.
    expect(JSON.stringify(server?.requests.at(-1)?.body)).not.toContain("this will hang");
    terminal.type("\u0003");
    await terminal.waitFor("Ctrl-C again to exit", seen);
    terminal.type("\u0003");
    expect(await exit).toBe(130);
  });

  it("queues a prompt typed while a request runs and sends it afterwards", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box, { allowTools: true });
    // A tool that takes a moment keeps the first request busy while the second prompt is typed.
    server?.enqueue(
      { type: "tool-calls", calls: [{ name: "bash", arguments: { command: "sleep 1" } }] },
      { type: "text", text: "answer A" },
      { type: "text", text: "answer B" },
    );
    terminal.type("prompt A\r");
    const seen = await terminal.waitFor("● bash sleep 1");
    terminal.type("prompt B\r");
    await terminal.waitFor("(queued", seen);
    await terminal.waitForAnswer("answer B", await terminal.waitFor("answer A", seen));
    expect(server?.requests).toHaveLength(3);
    expect(lastUserText()).toBe("prompt B");
    terminal.type("/exit\r");
    expect(await exit).toBe(0);
  });

  it("Ctrl-C during /compact cancels it and leaves the session as it was; /model reports a missing key", async () => {
    const box = await makeSandbox();
    await mkdir(join(box.project, ".panto"));
    await writeFile(join(box.project, ".panto", "config.json"), JSON.stringify({ keep_verbatim_tokens: 0 }));
    const { terminal, exit } = await start(box);
    server?.enqueue({ type: "text", text: "first answer" }, { type: "hang" });
    terminal.type("first question\r");
    let seen = await terminal.waitForAnswer("first answer");
    terminal.type("/compact\r");
    while (server?.requests.length !== 2) await new Promise((resolve) => setTimeout(resolve, 10));
    terminal.type("\u0003");
    const cancelledAt = seen;
    seen = await terminal.waitForAnswer("compaction cancelled; the session is unchanged", seen);
    // A cancel is reported once, not also as a failed attempt and a failed compaction.
    expect(terminal.screen.slice(cancelledAt, seen)).not.toMatch(/warning|✗/);
    terminal.type("/context\r");
    seen = await terminal.waitForAnswer("no compaction block, 1 turn", seen);
    terminal.type("/model openai/gpt-5\r");
    seen = await terminal.waitForAnswer("OPENAI_API_KEY", seen);
    terminal.type("/model\r");
    await terminal.waitForAnswer(`Model: ${MODEL}`, seen);
    terminal.type("\u0004");
    expect(await exit).toBe(0);
  });

  it("completes slash commands with Tab", async () => {
    const box = await makeSandbox();
    const { terminal, exit } = await start(box);
    terminal.type("/cle\t");
    terminal.type("\r");
    await terminal.waitFor("Started a new session:");
    terminal.type("/exit\r");
    expect(await exit).toBe(0);
  });
});
