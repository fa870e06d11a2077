import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { makeFolder } from "../../core/index.js";
import { describeContext } from "../../runtime/commands/describe-context.js";
import { formatCompactionReport } from "../../runtime/format-text.js";
import type { RunContext } from "../../runtime/run-context.js";
import { type RunEvent, RunEvents } from "../../runtime/run-events.js";
import { startRun } from "../../runtime/start-run.js";
import { startFakeAnthropicServer } from "../../simulator/fake-anthropic-server.js";
import type { FakeServerOptions } from "../../simulator/fake-provider-types.js";
import type { Tool } from "../../tools/index.js";
import { EXIT_FAILURE, EXIT_OK } from "../exit-status.js";
import { colourEnabled, createStyle, type Style } from "../terminal/style.js";
import { TerminalRenderer } from "../terminal/terminal-renderer.js";
import { createDemoResponder } from "./demo-responder.js";
import { DEMO_COMPACT_INSTRUCTIONS, DEMO_FILES, DEMO_STEPS } from "./demo-script.js";

/** Room for conversation above the fixed part of each request, in the fake server's tokens (JSON chars / 4). Sized so the fourth prompt overflows. */
const DEMO_HEADROOM_TOKENS = 1000;
/** Keep-verbatim budget: small, so each compaction has something to summarise. */
const DEMO_KEEP_VERBATIM_TOKENS = 200;
const ACTIVE_MODEL = "sim/coder";
const COMPACTION_MODEL = "sim/summariser";

export interface DemoIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
  /** Leave the temporary folder (project, PANTO_HOME and session file) in place. */
  keep?: boolean;
}

/**
 * `panto demo`: a simulation that needs no key and no network. The real agent, compaction, session
 * store and Anthropic adapter talk to a simulated Anthropic API on 127.0.0.1 with a tiny context
 * window: a scripted session overflows, compacts and retries, then `/compact keep the bug list`
 * runs, and the resulting effective context is printed. Its temporary folder is removed when it
 * ends, however it ends, unless `keep` is set.
 */
export async function runDemo(io: DemoIo): Promise<number> {
  const style = createStyle(colourEnabled(io.stdout, io.env ?? process.env));
  const out = (text = ""): void => {
    io.stdout.write(`${text}\n`);
  };
  const root = await mkdtemp(join(tmpdir(), "panto-demo-"));
  try {
    return await runDemoIn(root, io, style, out);
  } finally {
    if (io.keep === true) out(`The demo's files are kept in ${root} (delete it when done).`);
    else await rm(root, { recursive: true, force: true });
  }
}

async function runDemoIn(
  root: string,
  io: DemoIo,
  style: Style,
  out: (text?: string) => void,
): Promise<number> {
  const projectDir = join(root, "project");
  const pantoHome = join(root, "home");
  await writeProject(projectDir);
  // The window is set once the run's system prompt and tools are known (read per request).
  const serverOptions: FakeServerOptions = { responder: createDemoResponder(DEMO_STEPS) };
  const server = await startFakeAnthropicServer(serverOptions);
  await writeDemoConfig(projectDir, server.url);
  const renderer = new TerminalRenderer(io.stdout, io.stdout, style);
  const events = new RunEvents();
  let contextWindow = 0;
  events.subscribe((event) => renderDemoEvent(event, renderer, style, contextWindow));
  let run: RunContext | undefined;
  try {
    // A run as any front-end starts one (its tools, recall among them, its session and commands);
    // nobody is asked about a tool call: the simulated model only reads, anything else is refused.
    run = await startRun({
      options: { model: ACTIVE_MODEL, sandbox: "full" },
      io: {
        cwd: projectDir,
        env: { PANTO_HOME: pantoHome, PANTO_DEMO_KEY: "simulated-key-not-secret" },
        version: "demo",
      },
      events,
      frontEnd: { oneShot: true },
    });
    contextWindow = fixedRequestTokens(run.systemPrompt, run.tools) + DEMO_HEADROOM_TOKENS;
    serverOptions.contextWindow = contextWindow;
    printIntro(out, style, server.url, contextWindow, run.session.path);
    for (const [index, step] of DEMO_STEPS.entries()) {
      out(style.bold(`[${index + 1}/${DEMO_STEPS.length}] > ${step.prompt}`));
      const result = await run.submit(step.prompt);
      renderer.reset();
      if (result.type !== "answered") {
        out(style.red(`demo failed: ${JSON.stringify(result)}`));
        return EXIT_FAILURE;
      }
      out();
    }
    out(style.bold(`> /compact ${DEMO_COMPACT_INSTRUCTIONS}`));
    const result = await run.submit(`/compact ${DEMO_COMPACT_INSTRUCTIONS}`);
    renderer.reset();
    if (result.type !== "command" || result.outcome.type !== "compacted") {
      out(
        style.red(
          `demo failed: manual compaction ${result.type === "command" ? result.outcome.type : result.type}`,
        ),
      );
      return EXIT_FAILURE;
    }
    const { record, tokensBefore, tokensAfter } = result.outcome;
    out(formatCompactionReport(record, tokensBefore, tokensAfter));
    out();
    out(style.bold("What the next request would carry after the system prompt:"));
    out(describeContext(run.agent.effectiveContext()));
    out();
    out(
      `Simulation finished: ${server.requests.length} requests to the simulated provider. ` +
        `The session file was ${run.session.path}.`,
    );
    return EXIT_OK;
  } finally {
    await run?.close();
    await server.close();
  }
}

/** The demo project's config: the simulated provider, its two models, a small keep budget. */
async function writeDemoConfig(projectDir: string, url: string): Promise<void> {
  await makeFolder(join(projectDir, ".panto"));
  const config = {
    providers: { sim: { api: "anthropic-messages", base_url: url, api_key_env: "PANTO_DEMO_KEY" } },
    compaction_model: COMPACTION_MODEL,
    keep_verbatim_tokens: DEMO_KEEP_VERBATIM_TOKENS,
    checkpoints: false,
  };
  await writeFile(join(projectDir, ".panto", "config.json"), `${JSON.stringify(config, null, 2)}\n`);
}

function renderDemoEvent(event: RunEvent, renderer: TerminalRenderer, style: Style, window: number): void {
  if (event.type === "compaction-started" && event.trigger === "overflow")
    renderer.line(
      style.yellow(
        `✗ the simulated provider rejected the request: "prompt is too long" (window ${window} tokens)`,
      ),
    );
  renderer.render(event);
  const final =
    event.type === "assistant-message" && event.message.content.every((block) => block.type !== "tool-call");
  if (final && event.message.usage !== undefined)
    renderer.line(
      style.dim(
        `  (usage reported: ${event.message.usage.promptTokens} prompt tokens, ${event.message.usage.outputTokens} output tokens)`,
      ),
    );
}

function printIntro(
  out: (text?: string) => void,
  style: Style,
  url: string,
  window: number,
  sessionPath: string,
): void {
  out(style.bold("panto demo: a SIMULATION (no API key, no network, no real model)"));
  out(
    `A simulated Anthropic Messages API on ${url} answers from a script with a context window of only ${window} tokens.`,
  );
  out(
    `The real panto agent, compaction, session store and Anthropic adapter run against it; active model ${ACTIVE_MODEL}, compaction model ${COMPACTION_MODEL}.`,
  );
  out(`Session file (in a temporary folder removed at the end; panto demo --keep keeps it): ${sessionPath}`);
  out();
}

/**
 * The part of every request that does not grow (system prompt and tool definitions), in the fake
 * server's units (JSON characters / 4), plus a little for the envelope.
 */
function fixedRequestTokens(systemPrompt: string, tools: readonly Tool[]): number {
  const definitions = tools.map((tool) => ({
    name: tool.definition.name,
    description: tool.definition.description,
    input_schema: tool.definition.parameters,
  }));
  return Math.ceil((JSON.stringify(systemPrompt).length + JSON.stringify(definitions).length + 300) / 4);
}

async function writeProject(projectDir: string): Promise<void> {
  for (const [relative, content] of Object.entries(DEMO_FILES)) {
    const path = join(projectDir, relative);
    await makeFolder(dirname(path));
    await writeFile(path, content);
  }
}
