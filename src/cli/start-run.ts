import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { Agent, type AgentEvent, type ApprovalVerdict, buildSystemPrompt } from "../agent/index.js";
import { BASE_COMPACTION_PROMPT_PATH, resolveCompactionPrompt } from "../compaction/index.js";
import {
  ConfigError,
  DEFAULT_KEEP_VERBATIM_TOKENS,
  type LoadedConfig,
  loadConfig,
  type ModelPrice,
  projectConfigPath,
  readCompactionPromptLayers,
  type TimeoutsConfig,
  userConfigPath,
} from "../config/index.js";
import { isPantoError, type ModelClient, optional, type ToolCallBlock } from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";
import type { McpServers } from "../mcp/index.js";
import { SecretRedactor, toolEnvironment } from "../secrets/index.js";
import {
  findLatestConversation,
  newSessionPath,
  openNewSession,
  openSession,
  type Session,
  SessionError,
} from "../session/index.js";
import { createDefaultTools, type Tool } from "../tools/index.js";
import { chooseModel } from "./choose-model.js";
import type { CliIo } from "./cli-io.js";
import type { CliOptions } from "./cli-options.js";
import { UsageError } from "./exit-status.js";
import { addConfigSecrets, addEnvironmentSecrets } from "./known-secrets.js";
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
  const path = await chooseSessionPath(options, cwd, pantoHome, projectRoot, hooks.onWarning);
  const resumed = await hasContent(path);
  const sessionOptions = { cwd, onWarning: hooks.onWarning, redact: secrets.redact };
  // A new session's file is created by its first entry, so a launch that sends nothing leaves none.
  let session = await setupStep(async () =>
    resumed || (await exists(path))
      ? await openSession(path, sessionOptions)
      : openNewSession(path, sessionOptions),
  );
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
  const makeAgent = (session: Session, modelId: string): Agent => {
    agentHooks = makeHooks?.(session);
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
      await session.close();
      session = next;
      agent = makeAgent(next, agent.model);
      await agentHooks?.sessionStart("clear");
    },
    close: async () => {
      await session.close();
      await mcp?.close();
    },
  };
}

/**
 * createModelClient, loaded lazily (it pulls in the provider SDKs) and memoised per model id so
 * checking the key up front costs nothing later.
 */
export async function clientFactory(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
  onWarning: (message: string) => void,
  secrets: SecretRedactor,
): Promise<(modelId: string) => ModelClient> {
  const { createModelClient } = await import("../providers/create-model-client.js");
  const clients = new Map<string, ModelClient>();
  return (modelId) => {
    const existing = clients.get(modelId);
    if (existing !== undefined) return existing;
    const client = createModelClient(modelId, {
      env,
      onWarning,
      redact: secrets.redact,
      ...timeoutOptions(loaded.config.timeouts),
      ...optional("config", loaded.config.providers),
      ...(loaded.config.max_output_tokens === undefined
        ? {}
        : { maxOutputTokens: loaded.config.max_output_tokens }),
    });
    clients.set(modelId, client);
    return client;
  };
}

/** Config "timeouts" as createModelClient options; a missing one keeps the adapters' default. */
function timeoutOptions(timeouts: TimeoutsConfig | undefined): {
  firstByteTimeoutMs?: number;
  idleTimeoutMs?: number;
  requestTimeoutMs?: number;
} {
  return {
    ...(timeouts?.first_byte_ms === undefined ? {} : { firstByteTimeoutMs: timeouts.first_byte_ms }),
    ...(timeouts?.idle_ms === undefined ? {} : { idleTimeoutMs: timeouts.idle_ms }),
    ...(timeouts?.request_ms === undefined ? {} : { requestTimeoutMs: timeouts.request_ms }),
  };
}

async function chooseSessionPath(
  options: CliOptions,
  cwd: string,
  pantoHome: string,
  projectRoot: string,
  onWarning: (message: string) => void,
): Promise<string> {
  if (options.session !== undefined) return resolve(cwd, options.session);
  if (typeof options.resume === "string")
    return await (await import("./sessions/resolve-resume.js")).resolveResumePath(
      options.resume,
      cwd,
      pantoHome,
      projectRoot,
    );
  if (options.continue) {
    const latest = await findLatestConversation(pantoHome, projectRoot);
    if (latest !== undefined) return latest;
    onWarning(`no earlier conversation for ${projectRoot}; starting a new one`);
  }
  return newSessionPath(pantoHome, projectRoot);
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}

async function hasContent(path: string): Promise<boolean> {
  try {
    return (await stat(path)).size > 0;
  } catch {
    return false;
  }
}

/** Runs one setup step, turning configuration-class failures into a UsageError (exit status 2). */
async function setupStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asUsageError(error) ?? error;
  }
}

/** Config, session and model-setup errors are the user's to fix: usage errors. */
export function asUsageError(error: unknown): UsageError | undefined {
  if (error instanceof UsageError) return error;
  if (error instanceof ConfigError) return new UsageError(error.message, "config", { cause: error });
  if (error instanceof SessionError) return new UsageError(error.message, "session", { cause: error });
  if (isPantoError(error)) return new UsageError(error.message, error.code, { cause: error });
  return undefined;
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
