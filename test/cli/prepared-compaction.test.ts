import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer, RecordedRequest } from "../../src/simulator/index.js";
import { jsonLines, makeSandbox, PANTO_MAIN, runPanto } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const servers: FakeServer[] = [];
const terminals: TmuxTerminal[] = [];
afterEach(async () => {
  await Promise.all(terminals.splice(0).map((terminal) => terminal.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The window the server reports and enforces: one attached big.txt fits, two do not. */
const WINDOW = 40_000;
/** About 25,000 tokens as the fake server counts them (characters / 4). */
const BIG_TEXT = `${"lorem ipsum ".repeat(8_300)}\n`;

/** A summary request (no tools offered), not a chat request. */
function isSummaryRequest(request: RecordedRequest): boolean {
  const body = request.body as { tools?: unknown[] };
  return (body.tools ?? []).length === 0;
}

async function project(config: Record<string, unknown>) {
  const box = await makeSandbox();
  const server = await startFakeOpenAIChatServer({
    serverInfo: { kind: "llama.cpp", contextWindow: WINDOW },
    contextWindow: WINDOW,
  });
  servers.push(server);
  await mkdir(join(box.project, ".panto"));
  await writeFile(join(box.project, "big.txt"), BIG_TEXT);
  await writeFile(
    join(box.project, ".panto", "config.json"),
    JSON.stringify({
      model: "llamacpp/qwen2.5-7b",
      providers: { llamacpp: { base_url: server.url } },
      prepare_compaction_at: 0.5,
      ...config,
    }),
  );
  return { box, server };
}

async function terminalIn(box: Awaited<ReturnType<typeof makeSandbox>>) {
  const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN], {
    cwd: box.project,
    env: box.env,
  });
  terminals.push(terminal);
  await terminal.waitFor(/\/help for commands/);
  const enter = async (text: string) => {
    await terminal.type(text);
    await terminal.press("Enter");
  };
  return { terminal, enter };
}

describe("a compaction prepared before the wall, in the terminal (built CLI in a real terminal)", {
  timeout: 120_000,
}, () => {
  it("prints one line when it is ready, /compact applies it without a summary request, and /uncompact drops the next one", async () => {
    const { box, server } = await project({});
    const { terminal, enter } = await terminalIn(box);
    server.enqueue({ type: "text", text: "Read it." }, { type: "text", text: "PREPARED ONE." });
    await enter("read @big.txt");
    // Said on a line of its own above the prompt, which is drawn again.
    const ready = await terminal.waitFor(
      /\ncompaction prepared: 1 turn \(~\d+k tokens\) in ~\d+ tokens, for the next overflow \(\/summary\)\n>/,
    );
    expect(ready).not.toMatch(/> compaction prepared/);
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);

    await enter("/compact");
    await terminal.waitFor(/Compacted 1 turn into a summary; kept 0 turns verbatim\./);
    await enter("/summary");
    await terminal.waitFor(/Summary in effect \(manual compaction[\s\S]*PREPARED ONE\./);
    // The same turns a new summary would cover: the prepared one, no second request.
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);

    // Past half the window again (the summary and the new turn): the next one is prepared.
    server.enqueue({ type: "text", text: "Read again." }, { type: "text", text: "PREPARED TWO." });
    await enter("read @big.txt once more");
    await terminal.waitFor(/Read again\.[\s\S]*compaction prepared: 1 turn/);
    await enter("/summary");
    await terminal.waitFor(/Prepared ahead, pending[\s\S]*PREPARED TWO\./);

    // Undoing the compaction changes the history it was written from: it is dropped.
    await enter("/uncompact");
    await terminal.waitFor(/no longer applies|undone|Undid/i);
    await enter("/summary");
    const screen = await terminal.waitFor(/No summary: no compaction is in effect\.\n/);
    expect(screen.slice(screen.lastIndexOf("/uncompact"))).not.toMatch(/Prepared ahead/);
  });

  it("exits cleanly while a summary is being prepared: cancelled, no compaction written, no lock left", async () => {
    const { box, server } = await project({});
    const { terminal, enter } = await terminalIn(box);
    server.enqueue({ type: "text", text: "Read it." }, { type: "hang" });
    await enter("read @big.txt");
    await terminal.waitFor(/Read it\.[\s\S]*context/);
    const deadline = Date.now() + 10_000;
    while (server.requests.filter(isSummaryRequest).length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(server.requests.filter(isSummaryRequest)).toHaveLength(1);
    await terminal.press("C-d");
    expect(await terminal.exitStatus()).toBe(0);
    const screen = await terminal.waitFor(/\[exit status 0\]/);
    expect(screen).not.toMatch(/Unhandled|unhandled|Error:/);
    const sessions = join(box.home, "sessions");
    const [folder] = await readdir(sessions);
    const files = await readdir(join(sessions, folder ?? ""));
    expect(files.filter((name) => name.includes(".lock"))).toEqual([]);
    const session = files.find((name) => name.endsWith(".jsonl")) ?? "";
    const entries = (await readFile(join(sessions, folder ?? "", session), "utf8"))
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { type: string });
    expect(entries.map((entry) => entry.type)).not.toContain("compaction");
  });
});

describe("a one-shot run prepares nothing (built CLI)", { timeout: 60_000 }, () => {
  it("-p --json past prepare_compaction_at sends no summary request and emits no compaction_prepared", async () => {
    // Print and JSON modes ask no server for its window: the configured one (smaller) is known.
    const { box, server } = await project({ models: { "llamacpp/qwen2.5-7b": { context_window: 36_000 } } });
    server.enqueue({ type: "text", text: "Read it." });
    const result = await runPanto(["--json", "-p", "read @big.txt"], { cwd: box.project, env: box.env });
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    // It did pass the fraction (a warning says so) ...
    expect(events.filter((event) => event.type === "context_warning")).toMatchObject([{ level: 0.7 }]);
    // ... and prepared nothing.
    expect(events.filter((event) => event.type === "compaction_prepared")).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
