import { Agent, type AgentEvent, type ApprovalVerdict, buildSystemPrompt } from "../agent/index.js";
import type { SessionCheckpoints } from "../checkpoints/index.js";
import { BASE_COMPACTION_PROMPT_PATH, resolveCompactionPrompt } from "../compaction/index.js";
import {
  DEFAULT_KEEP_VERBATIM_TOKENS,
  type LoadedConfig,
  loadConfig,
  type ModelPrice,
  projectConfigPath,
  readCompactionPromptLayers,
  userConfigPath,
} from "../config/index.js";
import { type ModelClient, optional, type ToolCallBlock } from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";
import type { McpServers } from "../mcp/index.js";
import { SecretRedactor, toolEnvironment } from "../secrets/index.js";
import { newSessionPath, openNewSession, type Session } from "../session/index.js";
import { createDefaultTools, type Tool } from "../tools/index.js";
import { chooseModel } from "./choose-model.js";
import type { CliIo } from "./cli-io.js";
import type { CliOptions } from "./cli-options.js";
import { clientFactory } from "./client-factory.js";
import { UsageError } from "./exit-status.js";
import { addConfigSecrets, addEnvironmentSecrets } from "./known-secrets.js";
import { openRunSession } from "./sessions/open-run-session.js";
import { setupStep } from "./setup-errors.js";
import { checkpointRecorderFor } from "./start-checkpoints.js";
import { type HooksFactory, loadHooks } from "./start-hooks.js";
import { startMcp } from "./start-mcp.js";

/** What every mode hands the agent: how to report events, ask permission and warn. */
export interface RunHooks {
  onEvent: (event: AgentEvent) => void;
  approve: (call: ToolCallBlock, tool: Tool) => Promise<ApprovalVerdict>;
  onWarning: (message: string) => void;
}

/** A running CLI session: the agent, its session file, and what slash commands need to see. */
export interface RunContext {
  readonly agent: Agent;
  readonly session: Session;
  /** True when the session file already held entries before this run. */
  readonly resumed: boolean;
  /** Said once at startup (where the model came from when it was not configured or was restored). */
  readonly notices: readonly string[];
  /** Config "model" and "compaction_model", for `/model`. */
  readonly configuredModels: readonly string[];
  /** The (memoised) client for a "provider/model" id; throws for a bad id or a missing key. */
  createClient(modelId: string): ModelClient;
  readonly tools: readonly Tool[];
  readonly cwd: string;
  readonly pantoHome: string;
  readonly projectRoot: string;
  readonly allowTools: boolean;
  /** The MCP servers, when any are configured (`/mcp`). */
  readonly mcp: McpServers | undefined;
  /** The system prompt every request carries. */
  readonly systemPrompt: string;
  /** The active model's client (for what its server reports, such as the context window). */
  modelClient(): ModelClient;
  /** Config "prices" by "provider/model", for `/cost`. */
  readonly prices: Record<string, ModelPrice> | undefined;
  /** Replaces every credential panto knows (environment and config) in text it writes. */
  readonly redact: (text: string) => string;
  /** Runs the SessionStart hooks (source "startup" or "resume"); each mode calls it once it has said the session started. */
  sessionStart(): Promise<void>;
  /** Closes the current session and continues in a new, empty session file with the same model. */
  startNewSession(): Promise<void>;
  close(): Promise<void>;
}

export interface StartRunInput {
  options: CliOptions;
  /** Where the run starts, its environment, and the secrets already known (runCli's, which redacts its output with them; a redactor is made when absent). */
  io: Pick<CliIo, "cwd" | "env" | "secrets">;
  hooks: RunHooks;
}

/**
 * Loads configuration, checks the model and its key, resolves COMPACTION.md, opens (or creates)
 * the session and builds the agent. Every problem found here is a UsageError (exit status 2), and
 * nothing is written to a session file before the model and key are known to be usable. Every
 * known secret is redacted from session entries and provider errors, and withheld from `bash`.
 */
export async function startRun(input: StartRunInput): Promise<RunContext> {
  const { options, hooks } = input;
  const { cwd, env } = input.io;
  const secrets = input.io.secrets ?? new SecretRedactor();
  addEnvironmentSecrets(secrets, env);
  const loaded = await setupStep(() => loadConfig({ cwd, env }));
  const { config, pantoHome, projectRoot } = loaded;
  addConfigSecrets(secrets, config.providers, env);
  const createClient = await clientFactory(loaded, env, hooks.onWarning, secrets);
  const sessionOptions = { cwd, onWarning: hooks.onWarning, redact: secrets.redact };
  const opened = await openRunSession(options, { cwd, pantoHome, projectRoot }, sessionOptions);
  const { resumed } = opened;
  let session = opened.session;
  const notices: string[] = [];
  let model: string;
  try {
    const choice = chooseModel({
      flag: options.model,
      recorded: resumed ? session.recordedModel() : undefined,
      configured: config.model,
      env,
      createClient,
    });
    if (choice === undefined) throw new UsageError(noModelMessage(loaded), "config");
    if (choice.warning !== undefined) hooks.onWarning(choice.warning);
    if (choice.notice !== undefined) notices.push(choice.notice);
    model = choice.model;
    await setupStep(async () => createClient(model));
  } catch (error) {
    await session.close();
    throw error;
  }
  const compactionPrompt = await setupStep(async () => {
    const layers = await readCompactionPromptLayers({
      pantoHome,
      projectRoot,
      basePath: BASE_COMPACTION_PROMPT_PATH,
    });
    return resolveCompactionPrompt(layers).prompt;
  });
  const systemPrompt = await buildSystemPrompt({ cwd, projectRoot });
  const bashEnv = toolEnvironment(env, {
    passthrough: config.bash_env_passthrough ?? [],
    isSecret: (value) => secrets.isSecret(value),
  });
  const tools = createDefaultTools({ bashEnv });
  const makeHooks: HooksFactory | undefined = await loadHooks({
    config: config.hooks,
    projectRoot,
    env: bashEnv,
    redact: secrets.redact,
    onEvent: hooks.onEvent,
  });
  let agentHooks: AgentHooks | undefined;
  const recorderFor = checkpointRecorderFor(config, pantoHome, cwd);
  let recorder: SessionCheckpoints | undefined;
  const makeAgent = (session: Session, modelId: string): Agent => {
    agentHooks = makeHooks?.(session);
    recorder = recorderFor(session);
    return new Agent({
      session,
      model: modelId,
      createClient,
      tools,
      systemPrompt,
      compactionPrompt,
      keepVerbatimTokens: config.keep_verbatim_tokens ?? DEFAULT_KEEP_VERBATIM_TOKENS,
      ...optional("compactionModel", config.compaction_model),
      ...optional("maxOutputTokens", config.max_output_tokens),
      ...optional("restoreFacts", config.restore_facts),
      approve: hooks.approve,
      onEvent: hooks.onEvent,
      cwd,
      ...optional("hooks", agentHooks),
      ...optional("checkpoints", recorder),
    });
  };
  const mcp = await startMcp(loaded, cwd, env, hooks.onWarning);
  tools.push(...(mcp?.tools ?? []));
  let agent = makeAgent(session, model);
  return {
    get agent() {
      return agent;
    },
    get session() {
      return session;
    },
    resumed,
    notices,
    configuredModels: [config.model, config.compaction_model].filter((id): id is string => id !== undefined),
    createClient,
    tools,
    cwd,
    pantoHome,
    projectRoot,
    allowTools: options.allowTools,
    mcp,
    prices: config.prices,
    systemPrompt,
    modelClient: () => createClient(agent.model),
    redact: secrets.redact,
    sessionStart: async () => {
      await agentHooks?.sessionStart(resumed ? "resume" : "startup");
    },
    async startNewSession() {
      const next = openNewSession(newSessionPath(pantoHome, projectRoot), sessionOptions);
      await recorder?.close();
      await session.close();
      session = next;
      agent = makeAgent(next, agent.model);
      await agentHooks?.sessionStart("clear");
    },
    close: async () => {
      await recorder?.close();
      await session.close();
      await mcp?.close();
    },
  };
}

function noModelMessage(loaded: LoadedConfig): string {
  return [
    "no model configured.",
    "Pass one with --model PROVIDER/MODEL (e.g. -m anthropic/claude-sonnet-4-5, -m openai/gpt-5,",
    '-m google/gemini-2.5-pro, -m ollama/qwen2.5-coder:7b), or set "model" in',
    `${userConfigPath(loaded.pantoHome)} or ${projectConfigPath(loaded.projectRoot)},`,
    "or set ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY to use that provider's default model.",
    "To see panto work without a key or network, run: panto demo",
  ].join("\n");
}
