import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAIChatServer } from "../../src/simulator/fake-openai-chat-server.js";
import type { FakeServer } from "../../src/simulator/index.js";
import { makeSandbox, PANTO_MAIN } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

const servers: FakeServer[] = [];
const terminals: TmuxTerminal[] = [];
afterEach(async () => {
  await Promise.all(terminals.splice(0).map((terminal) => terminal.close()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("context warnings in the terminal (built CLI in a real terminal)", { timeout: 120_000 }, () => {
  it("prints one warning line per level passed, before the status line, and none again at the same level", async () => {
    const box = await makeSandbox();
    // llama.cpp reports a window of 10,000 tokens.
    const server = await startFakeOpenAIChatServer({
      serverInfo: { kind: "llama.cpp", contextWindow: 10_000 },
    });
    servers.push(server);
    await mkdir(join(box.project, ".panto"));
    await writeFile(
      join(box.project, ".panto", "config.json"),
      JSON.stringify({ model: "llamacpp/qwen2.5-7b", providers: { llamacpp: { base_url: server.url } } }),
    );
    const terminal = await TmuxTerminal.start([process.execPath, PANTO_MAIN], {
      cwd: box.project,
      env: box.env,
    });
    terminals.push(terminal);
    await terminal.waitFor(/\/help for commands/);
    const ask = async (text: string, answer: string, input: number, done: RegExp) => {
      server.enqueue({ type: "text", text: answer, usage: { input, output: 0 } });
      await terminal.type(text);
      await terminal.press("Enter");
      return terminal.waitFor(done);
    };

    let screen = await ask("one", "First.", 7200, /context 7\.2k tokens[^\n]*\n>/);
    expect(screen).toMatch(
      /First\.\nwarning: context past 70% of the window \(7\.2k of 10k tokens, reported by the server\);\s\/compact\smakes\sroom\ncontext 7\.2k tokens · 72% of 10k/,
    );
    screen = await ask("two", "Second.", 7400, /context 7\.4k tokens[^\n]*\n>/);
    expect(screen).toMatch(/Second\.\ncontext 7\.4k tokens/);
    screen = await ask("three", "Third.", 8700, /context 8\.7k tokens[^\n]*\n>/);
    expect(screen).toMatch(/Third\.\nwarning: context past 85% of the window \(8\.7k of 10k tokens/);
    expect(screen.match(/context past 70%/g)).toHaveLength(1);
  });
});
