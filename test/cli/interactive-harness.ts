import type { CliOptions } from "../../src/frontends/shared/cli-options.js";
import { runInteractive } from "../../src/frontends/terminal/run-interactive.js";
import { startFakeAnthropicServer } from "../../src/simulator/fake-anthropic-server.js";
import type { FakeServer } from "../../src/simulator/fake-provider-types.js";
import { FakeTerminal } from "./fake-terminal.js";
import type { Sandbox } from "./panto-process.js";

export const MODEL = "anthropic/claude-sonnet-4-5";

export interface InteractiveRun {
  terminal: FakeTerminal;
  /** Resolves with the exit status. */
  exit: Promise<number>;
  server: FakeServer;
}

/** Starts the interactive mode in-process against a fake Anthropic server; resolves once the banner shows. */
export async function startInteractive(
  box: Sandbox,
  options: Partial<CliOptions> = {},
  terminal = new FakeTerminal(),
): Promise<InteractiveRun> {
  const server = await startFakeAnthropicServer();
  const exit = runInteractive(
    { print: false, json: false, continue: false, allowTools: false, yes: false, model: MODEL, ...options },
    {
      cwd: box.project,
      env: { ...box.env, ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      version: "0.0.0-test",
      stdin: terminal.stdin,
      stdout: terminal.stdout,
      stderr: terminal.stderr,
    },
  );
  await terminal.waitFor("/help for commands");
  return { terminal, exit, server };
}

/** The text of the last user message the server received. */
export function lastUserText(server: FakeServer | undefined): string {
  const body = server?.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  const user = body.messages.filter((message) => message.role === "user").at(-1);
  const content = user?.content;
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>)
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
}
