import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer, FakeServerOptions } from "../../src/simulator/fake-provider-types.js";
import { useAnthropicSandboxes } from "../support/anthropic-sandboxes.js";
import { lastUserText, MODEL } from "./interactive-harness.js";
import { makeSandbox, PANTO_MAIN } from "./panto-process.js";
import { TmuxTerminal } from "./tmux-terminal.js";

/**
 * The interactive session in a real terminal (tmux): the built CLI against a fake Anthropic
 * server, typed at with send-keys and read back with capture-pane.
 */
const { closeAfter } = useAnthropicSandboxes("test-key");

interface Started {
  terminal: TmuxTerminal;
  server: FakeServer;
  project: string;
}

async function startPanto(
  options: { server?: FakeServerOptions; columns?: number; env?: NodeJS.ProcessEnv; args?: string[] } = {},
): Promise<Started> {
  const box = await makeSandbox();
  const server = closeAfter(await startFakeAnthropicServer(options.server));
  const terminal = await TmuxTerminal.start(
    [process.execPath, PANTO_MAIN, "-m", MODEL, ...(options.args ?? [])],
    {
      cwd: box.project,
      env: { ...box.env, ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: server.url, ...options.env },
      columns: options.columns ?? 100,
    },
  );
  closeAfter(terminal);
  await terminal.waitFor(/Ctrl-D exits/);
  return { terminal, server, project: box.project };
}

/** The text of the tool results in the request the server received last. */
function lastToolResults(server: FakeServer): string {
  const body = server.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return JSON.stringify(body.messages.at(-1)?.content);
}

describe("the interactive session in a real terminal", { timeout: 60_000 }, () => {
  it("shows what it waits for, with the elapsed time, until the first token of a slow server", async () => {
    const { terminal } = await startPanto({ server: { firstByteDelayMs: 3000 } });
    await terminal.type("hello");
    await terminal.press("Enter");
    const waiting = await terminal.waitFor(
      /waiting for anthropic\/claude-sonnet-4-5… · [12]s · Ctrl-C cancels/,
    );
    expect(waiting).toContain("> hello");
    // Wait for the next prompt too: the status line can be drawn a moment before it.
    const answered = await terminal.waitFor(/^context .* tokens.*\n>$/m);
    // The waiting row was erased: only the answer and the context status line follow the prompt.
    expect(answered.slice(answered.indexOf("> hello"))).toMatch(
      /^> hello\nok\ncontext [\d.,k]+ tokens( · [^\n]*)?\n>$/,
    );
  });

  it("takes a bracketed paste without a final newline as one prompt, sent only on Enter", async () => {
    const { terminal, server } = await startPanto();
    await terminal.paste("first line\nsecond line\nthird line");
    await terminal.waitFor(/> first line↵second line↵third line/);
    expect(server.requests).toHaveLength(0);
    await terminal.press("Enter");
    await terminal.waitFor(/^ok$/m);
    expect(server.requests).toHaveLength(1);
    expect(lastUserText(server)).toBe("first line\nsecond line\nthird line");

    // Alt-Enter inserts a line break too.
    await terminal.type("top");
    await terminal.press("M-Enter");
    await terminal.type("bottom");
    await terminal.waitFor(/> top↵bottom/);
    await terminal.press("Enter");
    await terminal.waitFor(/^ok$[\s\S]*^ok$/m);
    expect(lastUserText(server)).toBe("top\nbottom");

    // Leaving turns bracketed paste off: a paste into the shell after panto is not bracketed.
    await terminal.press("C-d");
    await terminal.exitStatus();
    await terminal.paste("after exit");
    expect(await terminal.waitFor(/after exit/)).not.toContain("[200~");
  });

  it("shows a long paste as one [pasted N lines #k] token and sends the whole text, with what was typed around it", async () => {
    const { terminal, server } = await startPanto();
    const pasted = Array.from({ length: 400 }, (_, index) => `log line ${index + 1}`).join("\n");
    await terminal.type("why does this fail? ");
    await terminal.paste(`${pasted}\n`);
    const screen = await terminal.waitFor(/> why does this fail\? \[pasted 400 lines #1\]/);
    // The paste is not echoed line by line.
    expect(screen).not.toContain("log line 200");
    await terminal.type(" thanks");
    await terminal.press("Enter");
    await terminal.waitFor(/^ok$/m);
    expect(server.requests).toHaveLength(1);
    expect(lastUserText(server)).toBe(`why does this fail? ${pasted} thanks`);
  });

  it("answers a permission question with one key, asks to leave the sandbox with the model's reason and no 'always', sends the reason for a no, and 'always' keeps the suggested rule for the session (listed by /permissions)", async () => {
    const { terminal, server, project } = await startPanto();
    server.enqueue(
      { type: "tool-calls", calls: [{ name: "write", arguments: { path: "a.txt", content: "x" } }] },
      {
        type: "tool-calls",
        calls: [
          {
            name: "bash",
            arguments: { command: "rm -rf build", unsandboxed_reason: "build is a shared folder outside" },
          },
        ],
      },
      { type: "tool-calls", calls: [{ name: "write", arguments: { path: "b.txt", content: "y" } }] },
      { type: "text", text: "all done" },
    );
    await terminal.type("go");
    await terminal.press("Enter");
    await terminal.waitFor(/Allow\? .*:$/m);
    await terminal.type("y");
    await terminal.waitFor(/yes\n +allowed/);
    const escapeQuestion = await terminal.waitFor(/● bash rm -rf build[\s\S]*outside the sandbox\? .*:$/m);
    expect(escapeQuestion).toMatch(
      /Outside the sandbox, with your full rights[\s\S]*The model's reason:\s+build is a shared folder outside/,
    );
    expect(escapeQuestion).not.toMatch(/outside the sandbox\? .*always/);
    expect(existsSync(join(project, "a.txt"))).toBe(true);
    await terminal.type("n");
    await terminal.waitFor(/why not\?.*:$/m);
    await terminal.type("the build folder is shared");
    await terminal.press("Enter");
    await terminal.waitFor(/denied; the model is told why/);
    await terminal.waitFor(/write b\.txt[\s\S]*Allow\? .*:$/m);
    expect(lastToolResults(server)).toContain(
      "did not allow running this command outside the sandbox. Their reason: the build folder is shared",
    );
    await terminal.type("a");
    // "Always" offers the rule as it will be written; Enter keeps it for this session.
    await terminal.waitFor(/always allow Edit\(\.\/b\.txt\)[\s\S]*Keep it where\? .*:$/m);
    await terminal.press("Enter");
    await terminal.waitFor(/all done/);
    await terminal.type("/permissions");
    await terminal.press("Enter");
    const rules = await terminal.waitFor(/Remove one with/);
    expect(rules).toMatch(/allow:\n +1\. Edit\(\.\/b\.txt\) +session +permissions\.allow\[0\]\n/);
  });

  it("summarises a tool's output without counting blank lines and exit status 0, and /last shows it whole", async () => {
    const { terminal, server } = await startPanto();
    server.enqueue(
      { type: "tool-calls", calls: [{ name: "bash", arguments: { command: "printf 'one\\n\\ntwo\\n'" } }] },
      { type: "text", text: "printed" },
    );
    await terminal.type("print");
    await terminal.press("Enter");
    // Inside the sandbox (the default) a command runs without a question.
    const summary = await terminal.waitFor(/printed/);
    expect(summary).not.toMatch(/Allow\?/);
    expect(summary).toMatch(/⎿ one \(\+1 line\)\n/);
    await terminal.type("/last");
    await terminal.press("Enter");
    const last = await terminal.waitFor(/Exit code: 0/);
    expect(last).toContain("● bash printf 'one\\n\\ntwo\\n'\none\n\ntwo\n\nExit code: 0");
  });
});

const LONG_CODE = `const message = ${JSON.stringify(`${"word ".repeat(36)}end`)}; // ${"x".repeat(10)}`;
const MARKDOWN_ANSWER = [
  "## Fix",
  "",
  "The **bug** is in `parseDate`, see [the docs](https://example.com/docs).",
  "",
  "- first point",
  "- second point",
  "",
  "| name | size |",
  "|------|-----:|",
  "| a    |    1 |",
  "",
  "```ts",
  LONG_CODE,
  "  return 1;",
  "```",
  "",
  "Done.",
].join("\n");

describe("answers rendered as Markdown in a real terminal", { timeout: 60_000 }, () => {
  it("renders Markdown with colour, and leaves a 200-character code line whole for the terminal to wrap", async () => {
    expect(LONG_CODE.length).toBeGreaterThanOrEqual(200);
    const { terminal } = await startPanto({
      columns: 40,
      env: { NO_COLOR: "", TERM: "xterm-256color" },
      server: { responder: () => ({ type: "text", text: MARKDOWN_ANSWER }) },
    });
    await terminal.type("fix it");
    await terminal.press("Enter");
    await terminal.waitFor(/Done\./);
    const joined = await terminal.screen({ joined: true, history: true });
    // Copied back (rows the terminal wrapped joined), the code is exactly the answer's.
    expect(joined).toContain(`\`\`\`ts\n${LONG_CODE}\n  return 1;\n\`\`\``);
    // Markdown syntax is rendered, not shown.
    expect(joined).toContain("\nFix\n");
    expect(joined).not.toContain("## Fix");
    expect(joined).not.toContain("**bug**");
    expect(joined).toContain("The bug is in parseDate");
    expect(joined).toContain("• first point");
    expect(joined).toMatch(/name │ size\n─+┼─+\na +│ +1/);
    const styled = await terminal.screen({ escapes: true, history: true });
    expect(styled).toContain("\u001b[1mbug");
  });

  it("with NO_COLOR writes the answer's plain Markdown, with no colour at all", async () => {
    const { terminal } = await startPanto({
      columns: 40,
      server: { responder: () => ({ type: "text", text: MARKDOWN_ANSWER }) },
    });
    await terminal.type("fix it");
    await terminal.press("Enter");
    await terminal.waitFor(/Done\./);
    const joined = await terminal.screen({ joined: true, history: true });
    expect(joined).toContain(MARKDOWN_ANSWER);
    const styled = await terminal.screen({ escapes: true, history: true });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for style sequences is the point.
    expect(styled).not.toMatch(/\u001b\[[0-9;]*m/);

    // /session's path is longer than the terminal is wide: panto does not break it, so it copies back whole.
    await terminal.type("/session");
    await terminal.press("Enter");
    await terminal.waitFor(/id: /);
    const path = /^Session: (\S+)$/m.exec(await terminal.screen({ joined: true, history: true }))?.[1] ?? "";
    expect(path.length).toBeGreaterThan(40);
    expect(path).toMatch(/\.jsonl$/);
    expect(existsSync(path)).toBe(true);
  });
});
