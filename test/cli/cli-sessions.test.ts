import { readFile, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newSessionPath, openSession } from "../../src/session/index.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { jsonLines, makeSandbox, PANTO_MAIN, runPanto, type Sandbox } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const PROMPTS = ["fix the date parser", "add a changelog entry", "write tests for parseDate"];
let servers: FakeServer[] = [];
let terminals: TmuxTerminal[] = [];

afterEach(async () => {
  await Promise.all([
    ...servers.map((server) => server.close()),
    ...terminals.map((terminal) => terminal.close()),
  ]);
  servers = [];
  terminals = [];
});

interface Listed {
  id: string;
  short_id: string;
  path: string;
  first_prompt: string | null;
  turns: number;
  compactions: number;
  counts_exact: boolean;
  size_bytes: number;
}

/** A sandbox with three real session files (the last one newest), written through openSession. */
async function threeSessions(): Promise<{
  box: Sandbox;
  server: FakeServer;
  env: NodeJS.ProcessEnv;
  listed: Listed[];
}> {
  const box = await makeSandbox();
  const server = await startFakeAnthropicServer({ responder: () => ({ type: "text", text: "done" }) });
  servers.push(server);
  const env = { ...box.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
  for (const [index, prompt] of PROMPTS.entries()) {
    const path = newSessionPath(box.home, box.project);
    const session = await openSession(path, { cwd: box.project, onWarning: () => {} });
    await session.appendMessage({ role: "user", content: [{ type: "text", text: prompt }] });
    await session.close();
    const written = new Date(Date.UTC(2025, 5, 1, 9, index));
    await utimes(path, written, written);
  }
  const list = await runPanto(["sessions", "--json"], { cwd: box.project, env });
  expect(list.code).toBe(0);
  return { box, server, env, listed: JSON.parse(list.stdout) as Listed[] };
}

function lastUserText(server: FakeServer): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages.filter((message) => message.role === "user"));
}

describe("panto sessions and -r (built CLI)", { timeout: 90_000 }, () => {
  it("lists this project's sessions newest first, as a table and as one JSON array", async () => {
    const { box, env, listed } = await threeSessions();
    expect(listed.map((session) => session.first_prompt)).toEqual([...PROMPTS].reverse());
    for (const session of listed) {
      expect(session).toMatchObject({ turns: 1, compactions: 0, counts_exact: true });
      expect(session.short_id).toBe(session.id.slice(0, 8));
      expect(session.size_bytes).toBe((await readFile(session.path)).length);
    }
    const table = await runPanto(["sessions"], { cwd: box.project, env });
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+STARTED\s+LAST WRITTEN\s+TURNS\s+COMPACTIONS\s+SIZE\s+FIRST PROMPT$/);
    expect(lines.slice(1).map((line) => line.slice(0, 8))).toEqual(listed.map((session) => session.short_id));
    expect(lines[1]).toMatch(/\s1\s+0\s+\d+ B\s+write tests for parseDate$/);
  });

  it("resumes a session by id prefix and by file-name prefix", async () => {
    const { box, server, env, listed } = await threeSessions();
    const oldest = listed[2];
    const byId = await runPanto(
      ["-m", MODEL, "-r", oldest?.short_id ?? "", "--json", "-p", "and the other one"],
      {
        cwd: box.project,
        env,
      },
    );
    expect(byId.code).toBe(0);
    expect(jsonLines(byId.stdout)[0]).toMatchObject({
      type: "session_started",
      session_id: oldest?.id,
      resumed: true,
    });
    expect(lastUserText(server)).toContain("fix the date parser");
    const fileName = oldest?.path.split("/").at(-1) ?? "";
    const byName = await runPanto(
      ["-m", MODEL, "--resume", fileName.slice(0, 26), "--json", "-p", "/session"],
      {
        cwd: box.project,
        env,
      },
    );
    expect(jsonLines(byName.stdout)[0]).toMatchObject({ session_path: oldest?.path });
  });

  it("exits 2 naming the candidates for an ambiguous or unknown prefix", async () => {
    const { box, env, listed } = await threeSessions();
    const year = listed[0]?.path.split("/").at(-1)?.slice(0, 4) ?? "";
    const ambiguous = await runPanto(["-m", MODEL, "-r", year, "-p", "hi"], { cwd: box.project, env });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`"${year}" matches 3 sessions`);
    for (const session of listed) expect(ambiguous.stderr).toContain(`${session.short_id}  ${session.path}`);
    const unknown = await runPanto(["-m", MODEL, "-r", "zzzz", "-p", "hi"], { cwd: box.project, env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no session id or file name starts with "zzzz"');
    expect(unknown.stderr).toContain(listed[0]?.path);
  });

  it("without an id and without a terminal, prints the list to stderr and exits 2 with a hint", async () => {
    const { box, env, listed } = await threeSessions();
    const result = await runPanto(["-m", MODEL, "-r"], { cwd: box.project, env });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    for (const session of listed) expect(result.stderr).toContain(session.short_id);
    expect(result.stderr).toContain("panto -r ID");
  });

  it("refuses -r together with -c or --session", async () => {
    const box = await makeSandbox();
    for (const other of [["-c"], ["--session", "x.jsonl"]]) {
      const result = await runPanto(["-r", "abc", ...other, "-p", "hi"], { cwd: box.project, env: box.env });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain("--resume cannot be used with --session or --continue");
    }
  });

  it("in a terminal, picks a session by typed filter and Enter, and Esc cancels with 130", async () => {
    const { box, server, env, listed } = await threeSessions();
    const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "-r"], {
      cwd: box.project,
      env,
    });
    terminals.push(terminal);
    await terminal.waitFor(/Resume a session/);
    await terminal.type("date");
    // "date" matches two first prompts; the newest of them is selected, Down moves to the older.
    const filtered = await terminal.waitFor(/filter: date\n/);
    expect(filtered).not.toContain("add a changelog entry");
    await terminal.press("Down", "Enter");
    await terminal.waitFor(/resumed/);
    await terminal.type("/session");
    await terminal.press("Enter");
    expect(await terminal.waitFor(/id: +\S+/)).toContain(`id:       ${listed[2]?.id}`);
    await terminal.type("and now?");
    await terminal.press("Enter");
    await terminal.waitFor(/done/);
    expect(lastUserText(server)).toContain("fix the date parser");

    const cancelled = await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "-r"], {
      cwd: box.project,
      env,
    });
    terminals.push(cancelled);
    await cancelled.waitFor(/Resume a session/);
    await cancelled.press("Escape");
    expect(await cancelled.exitStatus()).toBe(130);
    expect(await cancelled.screen()).toContain("panto: no session chosen");
  });

  it("the picker's filter matches only what its rows show, not attached files or piped stdin (issue 42)", async () => {
    const box = await makeSandbox();
    const server = await startFakeAnthropicServer({ responder: () => ({ type: "text", text: "done" }) });
    servers.push(server);
    const env = { ...box.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url };
    await writeFile(join(box.project, "notes.txt"), "the zebra crossing is closed\n");
    const prompts: Array<[string, string | undefined]> = [
      ["summarise @notes.txt", undefined],
      ["review this", "a zebra in the diff\n"],
      ["tell me about zebras", undefined],
    ];
    for (const [prompt, input] of prompts) {
      const run = await runPanto(["-m", MODEL, "-p", prompt], {
        cwd: box.project,
        env,
        ...(input === undefined ? {} : { input }),
      });
      expect(run.code).toBe(0);
    }
    const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN, "-m", MODEL, "-r"], {
      cwd: box.project,
      env,
    });
    terminals.push(terminal);
    const all = await terminal.waitFor(/Resume a session[\s\S]*review this/);
    expect(all).toContain("summarise @notes.txt");
    expect(all).not.toContain("crossing");
    expect(all).not.toContain("<stdin>");
    await terminal.type("zebra");
    const filtered = await terminal.waitFor(/filter: zebra\n/);
    expect(filtered).toContain("tell me about zebras");
    expect(filtered).not.toContain("summarise @notes.txt");
    expect(filtered).not.toContain("review this");
    await terminal.press("Escape");
    expect(await terminal.exitStatus()).toBe(130);
  });
});
