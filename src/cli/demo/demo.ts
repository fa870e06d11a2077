import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Agent, type AgentEvent, buildSystemPrompt } from "../../agent/index.js";
import { BASE_COMPACTION_PROMPT_PATH, resolveCompactionPrompt } from "../../compaction/index.js";
import { readCompactionPromptLayers } from "../../config/index.js";
import { makeFolder } from "../../core/index.js";
import { createRecallTool } from "../../recall/index.js";
import { describeContext } from "../../runtime/commands/describe-context.js";
import { formatCompactionReport } from "../../runtime/format-text.js";
import { newSessionPath, openSession } from "../../session/index.js";
import { startFakeAnthropicServer } from "../../simulator/fake-anthropic-server.js";
import { createDefaultTools, type Tool } from "../../tools/index.js";
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
  // The same tools a run offers, recall among them (it reads the demo's own session file).
  const tools = [...createDefaultTools(), createRecallTool({ session: () => session })];
  const systemPrompt = await buildSystemPrompt({ cwd: projectDir, projectRoot: projectDir });
  const layers = await readCompactionPromptLayers({
    pantoHome,
    projectRoot: projectDir,
    basePath: BASE_COMPACTION_PROMPT_PATH,
  });
  const contextWindow = fixedRequestTokens(systemPrompt, tools) + DEMO_HEADROOM_TOKENS;
  const server = await startFakeAnthropicServer({
    contextWindow,
    responder: createDemoResponder(DEMO_STEPS),
  });
  const { createModelClient } = await import("../../providers/index.js");
  const session = await openSession(newSessionPath(pantoHome, projectDir), { cwd: projectDir });
  try {
    const renderer = new TerminalRenderer(io.stdout, io.stdout, style);
    const agent = new Agent({
      session,
      model: ACTIVE_MODEL,
      compactionModel: COMPACTION_MODEL,
      createClient: (id) =>
        createModelClient(id, {
          config: { sim: { api: "anthropic-messages", base_url: server.url, api_key_env: "PANTO_DEMO_KEY" } },
          env: { PANTO_DEMO_KEY: "simulated-key-not-secret" },
        }),
      tools,
      systemPrompt,
      compactionPrompt: resolveCompactionPrompt(layers).prompt,
      keepVerbatimTokens: DEMO_KEEP_VERBATIM_TOKENS,
      // The simulated model only reads; anything else would be refused.
      approve: async () => "deny",
      onEvent: (event) => renderDemoEvent(event, renderer, style, contextWindow),
      cwd: projectDir,
    });
    printIntro(out, style, server.url, contextWindow, session.path);
    for (const [index, step] of DEMO_STEPS.entries()) {
      out(style.bold(`[${index + 1}/${DEMO_STEPS.length}] > ${step.prompt}`));
      const result = await agent.prompt(step.prompt);
      renderer.reset();
      if (!result.ok) {
        out(style.red(`demo failed: ${result.error.code}: ${result.error.message}`));
        return EXIT_FAILURE;
      }
      out();
    }
    out(style.bold(`> /compact ${DEMO_COMPACT_INSTRUCTIONS}`));
    const before = agent.contextTokens();
    const outcome = await agent.compact(DEMO_COMPACT_INSTRUCTIONS);
    renderer.reset();
    if (outcome.type !== "compacted") {
      out(style.red(`demo failed: manual compaction ${outcome.type}`));
      return EXIT_FAILURE;
    }
    out(formatCompactionReport(outcome.record, before, agent.contextTokens()));
    out();
    out(style.bold("What the next request would carry after the system prompt:"));
    out(describeContext(agent.effectiveContext()));
    out();
    out(
      `Simulation finished: ${server.requests.length} requests to the simulated provider. ` +
        `The session file was ${session.path}.`,
    );
    return EXIT_OK;
  } finally {
    await session.close();
    await server.close();
  }
}

function renderDemoEvent(event: AgentEvent, renderer: TerminalRenderer, style: Style, window: number): void {
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
