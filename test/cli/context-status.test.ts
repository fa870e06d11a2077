import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer, FakeServerInfo } from "../../src/simulator/index.js";
import { FakeTerminal } from "./fake-terminal.js";
import { startInteractive } from "./interactive-harness.js";
import { makeSandbox, PANTO_MAIN, runPanto } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const servers: FakeServer[] = [];
const terminals: TmuxTerminal[] = [];
afterEach(async () => {
  await Promise.all(terminals.splice(0).map((terminal) => terminal.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** The built CLI in a real terminal, talking to a fake OpenAI-compatible server of one kind. */
async function interactiveAgainst(serverInfo: FakeServerInfo | undefined, model = "qwen2.5-7b") {
  const box = await makeSandbox();
  const server = await startFakeOpenAIChatServer(serverInfo === undefined ? {} : { serverInfo });
  const provider = serverInfo === undefined ? "local" : serverInfo.kind.replace(".", "");
  servers.push(server);
  await mkdir(join(box.project, ".panto"));
  await writeFile(
    join(box.project, ".panto", "config.json"),
    // Named after the server's kind, as the built-in providers are, so panto knows where to ask.
    JSON.stringify({ model: `${provider}/${model}`, providers: { [provider]: { base_url: server.url } } }),
  );
  const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN], {
    cwd: box.project,
    env: box.env,
  });
  terminals.push(terminal);
  await terminal.waitFor(/\/help for commands/);
  return { terminal, server, box };
}

describe("the context status line after each answer (built CLI in a terminal)", { timeout: 120_000 }, () => {
  it.each([
    ["llama.cpp", { kind: "llama.cpp", contextWindow: 32000 }],
    ["Ollama", { kind: "ollama", contextWindow: 131072, numCtx: 32000 }],
    ["LM Studio", { kind: "lmstudio", contextWindow: 32000, model: "qwen2.5-7b" }],
    ["OpenRouter", { kind: "openrouter", contextWindow: 32000, model: "qwen2.5-7b" }],
  ] as Array<[string, FakeServerInfo]>)(
    "shows the reported size and the share of the window %s reports",
    async (_name, info) => {
      const { terminal, server, box } = await interactiveAgainst(info);
      server.enqueue({ type: "text", text: "First answer.", usage: { input: 3000, output: 200 } });
      await terminal.type("hello");
      await terminal.press("Enter");
      // 3,000 prompt tokens + 200 output tokens sent back next time = 3.2k, 10% of 32k.
      // Waits for the prompt after the status line too: a screen read between the two lacks it.
      const screen = await terminal.waitFor(/context 3\.2k tokens[^\n]*\n>/);
      expect(screen).toMatch(
        /First answer\.\ncontext 3\.2k tokens · 10% of 32k \(reported by the server\)\n>/,
      );
      expect(server.infoRequests.length).toBeGreaterThan(0);
      const asked = server.infoRequests.length;

      server.enqueue({
        type: "text",
        text: "Second answer.",
        usage: { input: 3500, output: 100, cacheRead: 4000 },
      });
      await terminal.type("again");
      await terminal.press("Enter");
      // The latest request's reported size: 3,500 + 4,000 cached + 100 = 7.6k, 24% of 32k; the window is not asked again.
      await terminal.waitFor(/context 7\.6k tokens · 24% of 32k/);
      expect(server.infoRequests).toHaveLength(asked);

      // Kept in panto's home per base URL; print mode asks no server and uses what was kept (issue 42).
      const kept = JSON.parse(await readFile(join(box.home, "context-windows.json"), "utf8"));
      expect(Object.values(kept[server.url] ?? {})).toMatchObject([{ context_window: 32000 }]);
      server.enqueue({ type: "text", text: "Printed.", usage: { input: 3200, output: 10 } });
      const printed = await runPanto(["-p", "once"], { cwd: box.project, env: box.env });
      expect(printed.code).toBe(0);
      expect(server.infoRequests).toHaveLength(asked);
    },
  );

  it("shows no percentage when neither the server nor panto's table knows the window, and marks an estimate as one", async () => {
    const { terminal, server } = await interactiveAgainst(undefined, "my-own-finetune");
    server.enqueue({ type: "text", text: "Nothing reported.", usage: null });
    await terminal.type("first");
    await terminal.press("Enter");
    // No request reported usage yet: the local estimate of everything, system prompt and tools included.
    await terminal.waitFor(
      /Nothing reported\.\ncontext ~\d+(\.\d)?k tokens \(estimated: no usage reported\)\n>/,
    );
    server.enqueue({ type: "text", text: "Answer.", usage: { input: 1234, output: 10 } });
    await terminal.type("hello");
    await terminal.press("Enter");
    const screen = await terminal.waitFor(/context 1\.2k tokens\n>/);
    expect(screen).not.toMatch(/% of/);
    server.enqueue({ type: "text", text: "No usage this time.", usage: null });
    await terminal.type("again");
    await terminal.press("Enter");
    // The earlier request's reported size still counts, plus an estimate of the new messages.
    await terminal.waitFor(/No usage this time\.\ncontext 1\.\dk tokens\n>/);
  });
});

describe("the status line's window when the server says none (built CLI in a terminal)", {
  timeout: 120_000,
}, () => {
  it("shows the share of the model's published window, labelled so", async () => {
    const { terminal, server } = await interactiveAgainst(undefined, "qwen2.5-7b");
    server.enqueue({ type: "text", text: "First answer.", usage: { input: 13107, output: 0 } });
    await terminal.type("hello");
    await terminal.press("Enter");
    // 13,107 of Qwen2.5's published 131,072 tokens.
    await terminal.waitFor(
      /First answer\.\ncontext 13k tokens · 10% of 131k \(the model's published window\)\n>/,
    );
  });
});

describe("the status line's styling (interactive mode in-process)", { timeout: 60_000 }, () => {
  // The harness's model, anthropic/claude-sonnet-4-5, has a published window of 200k.
  const PUBLISHED = " · 0% of 200k (the model's published window)";
  async function statusLineRaw(env: Record<string, string | undefined>): Promise<string> {
    const box = await makeSandbox();
    const terminal = new FakeTerminal({ columns: 100 });
    let raw = "";
    terminal.stdout.on("data", (chunk: Buffer) => {
      raw += chunk.toString("utf8");
    });
    const run = await startInteractive({ ...box, env: { ...box.env, ...env } }, {}, terminal);
    servers.push(run.server);
    run.server.enqueue({ type: "text", text: "Hi.", usage: { input: 500, output: 5 } });
    terminal.type("hello\r");
    await terminal.waitForAnswer("context 505 tokens");
    terminal.type("\u0004");
    expect(await run.exit).toBe(0);
    return raw.split("\n").find((line) => line.includes("context 505 tokens")) ?? "";
  }

  it("is dim on a colour terminal and has no escape codes with NO_COLOR", async () => {
    const { NO_COLOR: _unset, ...colour } = (await makeSandbox()).env;
    expect(await statusLineRaw({ ...colour, NO_COLOR: undefined })).toBe(
      `\u001b[2mcontext 505 tokens${PUBLISHED}\u001b[22m`,
    );
    expect(await statusLineRaw({ NO_COLOR: "1" })).toBe(`context 505 tokens${PUBLISHED}`);
  });
});
