import { readdir, readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newSessionPath, openSession, sessionDirectory } from "../../src/session/index.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { PANTO_MAIN, runPanto, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const { start, closeAfter } = useAnthropicSandboxes("k");
const setup = () => start({ responder: () => ({ type: "text", text: "hello back" }) });

async function launch(box: Sandbox, env: NodeJS.ProcessEnv, args: string[] = []): Promise<TmuxTerminal> {
  const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, ...args], {
    cwd: box.project,
    env,
  });
  closeAfter(terminal);
  await terminal.waitFor(/Ctrl-D exits/);
  return terminal;
}

async function sessionFiles(box: Sandbox): Promise<string[]> {
  const names = await readdir(sessionDirectory(box.home, box.project)).catch(() => []);
  return names.filter((name) => name !== "index.jsonl");
}

function userTexts(server: FakeServer): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages.filter((message) => message.role === "user"));
}

describe("sessions you can get back to (built CLI in tmux)", { timeout: 90_000 }, () => {
  it("an empty launch leaves no file or lock, prints no resume hint, and -c then resumes the real conversation", async () => {
    const { box, server, env } = await setup();
    const talk = await launch(box, env);
    await talk.type("remember the word pelican");
    await talk.press("Enter");
    await talk.waitFor(/hello back/);
    await talk.type("/exit");
    await talk.press("Enter");
    expect(await talk.exitStatus()).toBe(0);
    const [written] = await sessionFiles(box);
    expect(await sessionFiles(box)).toEqual([written]);
    const screen = await talk.screen();
    const id = /Session (\S+)\nResume it with: panto -r (\S+)/.exec(screen);
    expect(id?.[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(id?.[2]).toBe(id?.[1]);

    // Two empty launches afterwards: one left with Ctrl-D, one with a second Ctrl-C.
    const empty = await launch(box, env);
    await empty.press("C-d");
    expect(await empty.exitStatus()).toBe(0);
    expect(await empty.screen()).not.toContain("Resume it with");
    const interrupted = await launch(box, env);
    await interrupted.press("C-c");
    await interrupted.waitFor(/Ctrl-C again to exit/);
    await interrupted.press("C-c");
    expect(await interrupted.exitStatus()).toBe(130);
    expect(await interrupted.screen()).not.toContain("Resume it with");
    expect(await sessionFiles(box)).toEqual([written]);

    const continued = await runPanto(["-m", MODEL, "-c", "-p", "which word?"], { cwd: box.project, env });
    expect(continued.code).toBe(0);
    expect(userTexts(server)).toContain("remember the word pelican");
    expect(await sessionFiles(box)).toEqual([written]);

    const resumed = await runPanto(["-m", MODEL, "-r", id?.[1] ?? "", "-p", "and again?"], {
      cwd: box.project,
      env,
    });
    expect(resumed.stderr).toBe("");
    expect(resumed.code).toBe(0);
    expect(userTexts(server)).toContain("which word?");
  });

  it("-c skips newer sessions that hold no message (only a model entry, or an empty file)", async () => {
    const { box, server, env } = await setup();
    const first = await runPanto(["-m", MODEL, "-p", "the real question"], { cwd: box.project, env });
    expect(first.code).toBe(0);
    const later = new Date(Date.now() + 60_000);
    const modelOnly = newSessionPath(box.home, box.project);
    const session = await openSession(modelOnly, { cwd: box.project, onWarning: () => {} });
    await session.appendModel("anthropic/claude-haiku-4-5");
    await session.close();
    await utimes(modelOnly, later, later);
    const emptyFile = newSessionPath(box.home, box.project);
    await writeFile(emptyFile, "");
    await utimes(emptyFile, later, later);
    const continued = await runPanto(["-m", MODEL, "-c", "-p", "next"], { cwd: box.project, env });
    expect(continued.code).toBe(0);
    expect(userTexts(server)).toContain("the real question");
  });

  it("a resumed session shows its latest turns, the earlier ones collapsed, and its id in the banner from the start (issue 42)", async () => {
    const { box, env } = await start({
      responder: (request) => {
        const text = JSON.stringify(request.body);
        const asked = [...text.matchAll(/topic (\w+)/g)].at(-1)?.[1] ?? "?";
        return { type: "text", text: `Answer about ${asked}.\nSecond line of the answer.` };
      },
    });
    for (const topic of ["alpha", "bravo", "charlie", "delta"]) {
      const args = topic === "alpha" ? ["-p", `topic ${topic}`] : ["-c", "-p", `topic ${topic}`];
      expect((await runPanto(["-m", MODEL, ...args], { cwd: box.project, env })).code).toBe(0);
    }
    const [name] = await sessionFiles(box);
    const path = join(sessionDirectory(box.home, box.project), name ?? "");
    const id = (JSON.parse((await readFile(path, "utf8")).split("\n")[0] ?? "{}") as { id: string }).id;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    for (const args of [["-c"], ["-r", id.slice(0, 8)], ["--session", path]]) {
      const terminal = await launch(box, env, args);
      const screen = await terminal.screen();
      expect(screen, args.join(" ")).toContain(`session ${id} (resumed:`);
      expect(screen).toContain("… 1 earlier turn");
      expect(screen).not.toContain("topic alpha");
      for (const topic of ["bravo", "charlie", "delta"]) {
        expect(screen).toContain(`> topic ${topic}`);
        expect(screen).toContain(`Answer about ${topic}. …`);
      }
      expect(screen).not.toContain("Second line of the answer");
      // The recap comes before the prompt, in conversation order.
      expect(screen.indexOf("topic bravo")).toBeLessThan(screen.indexOf("topic delta"));
      expect(screen.indexOf("topic delta")).toBeLessThan(screen.indexOf("Ctrl-D exits"));
      await terminal.press("C-d");
      expect(await terminal.exitStatus()).toBe(0);
    }

    // A new session names its id at once too, not only on the way out.
    const fresh = await launch(box, env);
    expect(await fresh.screen()).toMatch(
      /session [0-9a-f-]{36} \(new: the file is written with the first message\)/,
    );
    await fresh.press("C-d");
    expect(await fresh.exitStatus()).toBe(0);
  });
});
