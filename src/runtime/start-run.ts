import { homedir } from "node:os";
import { Agent } from "../agent/agent.js";
import type { AgentOptions } from "../agent/agent-options.js";
import { buildSystemPrompt } from "../agent/build-system-prompt.js";
import { BASE_COMPACTION_PROMPT_PATH, resolveCompactionPrompt, todoProgress } from "../compaction/index.js";
import {
  DEFAULT_KEEP_VERBATIM_TOKENS,
  type LoadedConfig,
  loadConfig,
  localConfigPath,
  type PantoConfig,
  projectConfigPath,
  readCompactionPromptLayers,
  userConfigPath,
} from "../config/index.js";
import { optional, type SandboxMode } from "../core/index.js";
import type { AgentHooks } from "../hooks/index.js";
import { createRecallTool } from "../recall/recall-tool.js";
import { SecretRedactor, toolEnvironment } from "../secrets/index.js";
import {
  newSessionHeader,
  newSessionPath,
  openNewSession,
  openSession,
  type Session,
  tasksFolder,
} from "../session/index.js";
import { createSkillTool } from "../skills/create-skill-tool.js";
import { skillsPromptSection } from "../skills/skills-prompt-section.js";
import type { TaskEnvironment } from "../subagents/index.js";
import { createTodoTool } from "../todos/todo-tool.js";
import { BackgroundTasks, createDefaultTools } from "../tools/index.js";
import { type ApprovalMode, ApprovalPolicy } from "./approval-policy.js";
import { usageError } from "./command-outcome.js";
import { CommandRegistry } from "./command-registry.js";
import { builtInCommands } from "./commands/built-in-handlers.js";
import { DEFAULT_CONTEXT_WARNINGS } from "./context-warnings.js";
import { ContextWatch } from "./context-watch.js";
import type { FrontEnd } from "./front-end.js";
import { modePromptSection } from "./mode-prompt-section.js";
import type { RunContext, RunOptions, RuntimeCommand } from "./run-context.js";
import type { RunEvents } from "./run-events.js";
import { RunRules } from "./run-rules.js";
import { addCustomCommands } from "./setup/add-custom-commands.js";
import { checkRunFolders } from "./setup/check-run-folders.js";
import { chooseModel } from "./setup/choose-model.js";
import { clearingSettings } from "./setup/clearing-settings.js";
import { clientFactory } from "./setup/client-factory.js";
import { makeFork } from "./setup/fork-run-session.js";
import { addConfigSecrets, addEnvironmentSecrets } from "./setup/known-secrets.js";
import { loadRunSkills } from "./setup/load-run-skills.js";
import { openRunSession } from "./setup/open-run-session.js";
import { NoModelError, setupStep } from "./setup/setup-errors.js";
import { checkpointRecorderFor, type RunCheckpoints } from "./setup/start-checkpoints.js";
import { type HooksFactory, loadHooks } from "./setup/start-hooks.js";
import { startMcp } from "./setup/start-mcp.js";
import { type RunSandbox, startSandbox } from "./setup/start-sandbox.js";
import { taskTool } from "./setup/task-tool-setup.js";
import { submitInput } from "./submit-input.js";

export interface StartRunInput {
  options: RunOptions;
  /**
   * Where the run starts, its environment, panto's version (told to MCP servers), and the secrets
   * already known (the front-end's, which redacts its output with them; a redactor is made when absent).
   */
  io: { cwd: string; env: NodeJS.ProcessEnv; version: string; secrets?: SecretRedactor | undefined };
  frontEnd: FrontEnd;
  /** The stream the run reports to: subscribe to it first, and setup's warnings arrive too. */
  events: RunEvents;
  /** Settings a program gives beside the config files (validated), winning over all but the managed ones. */
  config?: { config: PantoConfig; source: string };
}

/**
 * Starts a run for any front-end: loads configuration, checks the model and its key, resolves
 * COMPACTION.md, opens (or creates) the session, starts hooks and MCP servers, and builds the agent
 * with the run's approval policy and commands. Every problem found here is a UsageError, and
 * nothing is written to a session file before the model and key are known to be usable. Every
 * known secret is redacted from session entries and provider errors, and withheld from `bash`.
 * A run keeps all its state itself, so one process may hold several.
 */
export async function startRun(input: StartRunInput): Promise<RunContext> {
  const { options, events, frontEnd } = input;
  const { cwd, env } = input.io;
  const onWarning = (message: string): void => events.emit({ type: "run-warning", message });
  const secrets = input.io.secrets ?? new SecretRedactor();
  addEnvironmentSecrets(secrets, env);
  const loaded = await setupStep(() => loadConfig({ cwd, env, ...optional("given", input.config) }));
  const { config, pantoHome, projectRoot } = loaded;
  await checkRunFolders({ pantoHome, projectRoot, env, checkpoints: config.checkpoints !== false });
  addConfigSecrets(secrets, config.providers, env);
  // Windows are asked of servers only where they are shown: not in print and JSON modes.
  const createClient = await clientFactory(loaded, env, onWarning, secrets, input.frontEnd.oneShot !== true);
  const sessionOptions = { cwd, onWarning, redact: secrets.redact };
  const place = { cwd, pantoHome, projectRoot };
  const opened = await openRunSession(options, place, sessionOptions);
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
    if (choice === undefined) throw new NoModelError(noModelMessage(loaded));
    if (choice.warning !== undefined) onWarning(choice.warning);
    if (choice.notice !== undefined) notices.push(choice.notice);
    model = choice.model;
    await setupStep(async () => createClient(model));
  } catch (error) {
    await session.close();
    throw error;
  }
  // The model and key are usable: a one-shot run's new session file is made and locked while the
  // rest is set up (its many small file operations would otherwise wait for the prompt's append).
  // A long-lived front-end leaves it to the first prompt, so that `-c` elsewhere meanwhile still
  // finds the session before it, not an empty locked file.
  if (frontEnd.oneShot === true) session.reserve?.();
  try {
    const compactionPrompt = await setupStep(async () => {
      const layers = await readCompactionPromptLayers({
        pantoHome,
        projectRoot,
        basePath: BASE_COMPACTION_PROMPT_PATH,
      });
      return resolveCompactionPrompt(layers).prompt;
    });
    const skills = await loadRunSkills({ projectRoot, pantoHome }, onWarning);
    const basePrompt = withSection(
      await buildSystemPrompt({ cwd, projectRoot }),
      skillsPromptSection(skills),
    );
    // The mode section comes last, so a switch of plan mode changes nothing before it.
    let planSeen = options.plan === true;
    const promptFor = (mode: ApprovalMode): string =>
      withSection(basePrompt, modePromptSection(mode, planSeen));
    const bashEnv = toolEnvironment(env, {
      passthrough: config.bash_env_passthrough ?? [],
      isSecret: (value) => secrets.isSecret(value),
    });
    // recall and todo are always offered, so the tool list (and the cached prefix) never changes; it follows
    // the run's session as /clear or a handoff replaces it.
    const confinement = await startRunSandbox(options, loaded, env, session);
    // Background commands log beside the session they were started in; they all stop with the run.
    const tasks = new BackgroundTasks(() => tasksFolder(session.path));
    tasks.subscribe((event) => events.emit(event));
    const tools = [
      ...createDefaultTools({
        bashEnv,
        ...optional("sandbox", confinement.sandbox?.policy),
        ...optional("webFetch", config.web_fetch),
        tasks,
      }),
      createRecallTool({ session: () => session, redact: secrets.redact }),
      createTodoTool({
        session: () => session,
        onUpdate: (items) => events.emit({ type: "todo-updated", items, ...todoProgress(items) }),
      }),
    ];
    if (skills.length > 0) tools.push(createSkillTool(skills));
    const makeHooks: HooksFactory | undefined = await loadHooks({
      config: config.hooks,
      projectRoot,
      env: bashEnv,
      redact: secrets.redact,
      onEvent: (event) => events.emit(event),
    });
    const home = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
    // The rules' code loads only when some config file has rules (or a question suggests one).
    const runRules = await RunRules.create(loaded.permissionRules, { root: projectRoot, home }, cwd, {
      local: localConfigPath(projectRoot),
      user: userConfigPath(pantoHome),
    });
    const approvals = new ApprovalPolicy({
      allowAll: options.allowTools === true,
      ...optional("mode", options.approvalMode),
      plan: options.plan === true,
      onModeChanged: (mode, previous) => {
        planSeen ||= mode === "plan";
        systemPrompt = promptFor(mode);
        if (agentOptions !== undefined) agentOptions = { ...agentOptions, systemPrompt };
        agent.setSystemPrompt(systemPrompt);
        events.emit({ type: "mode-changed", mode, previous });
      },
      allowUnsandboxed: options.allowUnsandboxed === true,
      runRules,
      onRulesAdded: (rules, file) =>
        events.emit({
          type: "run-notice",
          message: `allowed from now on: ${rules.join(", ")} (${file === undefined ? "this session" : `saved to ${file}`})`,
        }),
      onRulesFailed: (message) =>
        events.emit({
          type: "run-warning",
          message: `the rule was not saved, so it is not in force: ${message}`,
        }),
      ...optional("ask", frontEnd.askApproval),
      onDenied: (call, leaving, origin, rule) =>
        events.emit({
          type: "tool-denied",
          call,
          ...(leaving ? { escape: true as const } : {}),
          ...optional("origin", origin),
          ...optional("rule", rule),
        }),
    });
    let systemPrompt = promptFor(approvals.mode);
    let agentHooks: AgentHooks | undefined;
    let agentOptions: AgentOptions | undefined;
    const recorderFor = checkpointRecorderFor(config, pantoHome, cwd);
    let recorder: RunCheckpoints | undefined;
    const makeAgent = (session: Session, modelId: string): Agent => {
      agentHooks = makeHooks?.(session);
      recorder = recorderFor(session);
      agentOptions = {
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
        ...optional("toolDeadlineMs", config.tool_deadline_ms),
        approve: approvals.decide,
        permissionRules: runRules.check,
        // Plan mode is enforced when a call runs; its code loads only when a call runs in it.
        restrictTool: async (call, tool) =>
          approvals.mode === "plan"
            ? (await import("./plan-mode-guard.js")).planModeRestriction(call, tool, confinement.sandbox)
            : undefined,
        readDenied: runRules.readDenied,
        onEvent: (event) => events.emit(event),
        // What /pin, /unpin, /uncompact, /summary edit and /compact --preview did is their outcome.
        controlEvents: false,
        cwd,
        ...optional("hooks", agentHooks),
        ...optional("files", frontEnd.files),
        ...optional("sandbox", confinement.sandbox),
        sandboxRecord: confinement.record,
        ...optional("checkpoints", recorder),
        notes: () => tasks.takeExitNotes(),
        clearing: clearingSettings(config.clearing),
        ...optional("compactWhenCold", config.compact_when_cold),
        // Loaded when clearing first needs the window (its default trigger), not at every start.
        contextWindow: async (id) => {
          const { knownWindow } = await import("./context-usage.js");
          return (await knownWindow(createClient(id), undefined, id, config.models))?.tokens;
        },
      };
      return new Agent(agentOptions);
    };
    const mcp = await startMcp(
      loaded,
      { cwd, env, version: input.io.version, onWarning, secrets },
      options.mcpServers,
    );
    tools.push(...(mcp?.tools ?? []));
    const taskEnvironment: TaskEnvironment = {
      parentOptions: () => ({ ...(agentOptions as AgentOptions), model: agent.model }),
      parentSession: () => session,
      pantoHome,
      projectRoot,
      sessionOptions,
      ...optional("maxTurns", options.maxTurns),
      checkpointsFor: (child) => recorderFor(child),
      approveFor: (origin) => (call, tool, request) => approvals.decide(call, tool, request, origin),
      onTaskEvent: (event) => events.emit(event),
    };
    tools.push(
      await taskTool(taskEnvironment, { projectRoot, pantoHome }, config.max_parallel_tasks, onWarning),
    );
    let agent = makeAgent(session, model);
    /** Moves the run onto `next`: the old session's preparation, checkpoints and lock end first. */
    const switchSession = async (next: Session, start: "clear" | "resume"): Promise<void> => {
      await agent.closePreparation();
      await recorder?.close();
      await session.close();
      session = next;
      agent = makeAgent(next, agent.model);
      contextWatch.opened();
      await agentHooks?.sessionStart(start);
    };
    const commands = new CommandRegistry<RuntimeCommand>(builtInCommands());
    await addCustomCommands(commands, { projectRoot, pantoHome }, onWarning);
    const contextWatch = new ContextWatch(() => run, {
      warnings: config.context_warnings ?? DEFAULT_CONTEXT_WARNINGS,
      // A one-shot run exits before a prepared summary could be used.
      ...(frontEnd.oneShot === true ? {} : optional("prepareAt", config.prepare_compaction_at)),
      ...(frontEnd.oneShot === true || config.compact_when_cold === undefined
        ? {}
        : { coldAfterMs: clearingSettings(config.clearing).cacheTtlSeconds * 1000 }),
    });
    const run: RunContext = {
      contextWatch,
      maxTurns: options.maxTurns,
      get agent() {
        return agent;
      },
      get session() {
        return session;
      },
      resumed,
      notices,
      configuredModels: [config.model, config.compaction_model].filter(
        (id): id is string => id !== undefined,
      ),
      compactionModel: config.compaction_model,
      createClient,
      tools,
      cwd,
      pantoHome,
      projectRoot,
      sandbox: confinement.record,
      toolSandbox: confinement.sandbox,
      tasks,
      mcp,
      prices: config.prices,
      models: config.models,
      get systemPrompt() {
        return systemPrompt;
      },
      skills,
      modelClient: () => createClient(agent.model),
      redact: secrets.redact,
      events,
      approvals,
      commands,
      frontEnd,
      runCommand: async ({ name, args }, signal) => {
        const command = commands.find(name);
        const outcome =
          command === undefined
            ? usageError(commands.unknownCommandMessage(name))
            : await command.execute(run, args, signal);
        events.emit({ type: "command", name: command?.name ?? name, args, outcome });
        return outcome;
      },
      submit: (input, submitOptions) => submitInput(run, input, submitOptions?.signal),
      sessionStart: async () => {
        await agentHooks?.sessionStart(resumed ? "resume" : "startup");
      },
      async startNewSession() {
        await switchSession(openNewSession(newSessionPath(pantoHome, projectRoot), sessionOptions), "clear");
      },
      async startChildSession(relation) {
        const parent = { id: session.header.id, path: session.path, relation };
        const header = newSessionHeader(cwd, parent);
        await switchSession(
          openNewSession(newSessionPath(pantoHome, projectRoot), { ...sessionOptions, header }),
          "clear",
        );
      },
      yes: options.yes === true,
      fork: opened.fork,
      async forkSession(turn) {
        const fork = await makeFork(session.path, turn, place);
        await switchSession(await openSession(fork.path, sessionOptions), "resume");
        return fork;
      },
      close: async () => {
        await tasks.close();
        await contextWatch.close();
        await agent.closePreparation();
        await recorder?.close();
        // Independent of each other: the session's locks, the MCP servers and the sandbox's folders
        // go at once; each is closed even when another fails, and the first failure is reported.
        await closeAll([session.close(), mcp?.close(), confinement.sandbox?.close()]);
      },
    };
    events.subscribe((event) => contextWatch.onEvent(event));
    // A resumed session whose cache has gone cold has its compaction's summary written now.
    contextWatch.opened();
    return run;
  } catch (error) {
    // A setup step failed: the session closes (a reserved file, still empty, is removed with it).
    await session.close();
    throw error;
  }
}

/** The run's sandbox (a UsageError when it cannot start); the session opened for this run is closed on failure. */
async function startRunSandbox(
  options: RunOptions,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
  session: Session,
): Promise<RunSandbox> {
  try {
    return await setupStep(() =>
      startSandbox({
        config: loaded.config.sandbox,
        flag: options.sandbox,
        ...optional("pinned", pinnedSandbox(loaded)),
        projectRoot: loaded.projectRoot,
        pantoHome: loaded.pantoHome,
        env,
      }),
    );
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** Waits for every closing; then throws the first failure among them, in the order given. */
async function closeAll(closings: ReadonlyArray<Promise<void> | undefined>): Promise<void> {
  const settled = await Promise.allSettled(closings);
  const failed = settled.find((outcome) => outcome.status === "rejected");
  if (failed !== undefined) throw failed.reason;
}

/** The sandbox mode the managed settings pin, if they set one. */
function pinnedSandbox(loaded: LoadedConfig): { mode: SandboxMode; file: string } | undefined {
  const managed = loaded.managed;
  const mode = managed?.config.sandbox?.mode;
  return managed === undefined || mode === undefined ? undefined : { mode, file: managed.file };
}

/** The system prompt with one more section (none when it is empty). */
function withSection(prompt: string, section: string): string {
  return section === "" ? prompt : `${prompt}\n${section}\n`;
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
