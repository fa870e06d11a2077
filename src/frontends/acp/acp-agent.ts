import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import {
  type AgentApp,
  type AgentContext,
  agent,
  type ClientCapabilities,
  type InitializeRequest,
  type InitializeResponse,
  type McpServer,
  RequestError,
} from "@agentclientprotocol/sdk";
import { optional, type SandboxMode } from "../../core/index.js";
import { describeOutcome } from "../../runtime/outcome-text.js";
import type { RunOptions } from "../../runtime/run-context.js";
import { RunEvents } from "../../runtime/run-events.js";
import { asUsageError, NoModelError, type UsageError } from "../../runtime/setup/setup-errors.js";
import { startRun } from "../../runtime/start-run.js";
import type { SecretRedactor } from "../../secrets/index.js";
import { AcpSession, TurnFailure } from "./acp-session.js";
import { askPermission } from "./ask-permission.js";
import { clientFiles } from "./client-files.js";
import { initializeParamsProblem, initializeResponse } from "./early-initialize.js";
import { mcpServerSpecs } from "./mcp-server-specs.js";
import { replayHistory } from "./replay-history.js";
import { approvalModeOf, MODE_OPTION, MODEL_OPTION } from "./session-config.js";
import { listSessionPage } from "./session-list.js";

/** What `panto acp` is started with. */
export interface AcpAgentOptions {
  version: string;
  env: NodeJS.ProcessEnv;
  secrets: SecretRedactor;
  /** -m: the model of every session this process starts (else config's, or the resumed session's). */
  model?: string;
  /** Whether `initialize` says prompts may carry images (false when -m names a model that takes none). */
  images?: boolean;
  /** --max-turns: model requests one prompt may make. */
  maxTurns?: number;
  /** --sandbox: how the model's tools are confined (else config "sandbox", else workspace-write). */
  sandbox?: SandboxMode;
  /** Warnings for the user: stderr, never stdout. */
  warn: (message: string) => void;
  /** Notices (informational, not problems): stderr, never stdout. */
  note: (message: string) => void;
}

/** The sessions of one connection and what the client said it can do. */
export class AcpAgent {
  readonly sessions = new Map<string, AcpSession>();
  readonly #options: AcpAgentOptions;
  #capabilities: ClientCapabilities = {};
  /** Whether `initialize` has arrived (not: been answered). */
  #initialized = false;

  constructor(options: AcpAgentOptions) {
    this.#options = options;
  }

  /**
   * The SDK app: every method panto answers; any other is method-not-found. `initialize` is
   * registered with panto's own params check, which keeps the SDK's gate off: that gate refuses
   * every request until the initialize response has been written, so a client that sends
   * `session/new` right behind `initialize` (without waiting for the reply) was refused. panto's
   * gate (`#requireInitialized`) opens when `initialize` arrives; requests are handled in order.
   */
  app(): AgentApp {
    return agent({ name: "panto" })
      .onRequest("initialize", parseInitializeParams, ({ params }): InitializeResponse => {
        this.initialized(params);
        return initializeResponse(this.#options.version, this.#options.images ?? true);
      })
      .onRequest("session/new", async ({ params, client }) => {
        this.#requireInitialized("session/new");
        const session = await this.#open(client, params.cwd, params.mcpServers, {});
        this.#announceAfterResponse(session);
        return { sessionId: session.id, modes: session.modes(), configOptions: session.configOptions() };
      })
      .onRequest("session/resume", async ({ params, client }) => {
        this.#requireInitialized("session/resume");
        const session = await this.#reopen(client, params.sessionId, params.cwd, params.mcpServers ?? []);
        this.#announceAfterResponse(session);
        return { modes: session.modes(), configOptions: session.configOptions() };
      })
      .onRequest("session/load", async ({ params, client }) => {
        this.#requireInitialized("session/load");
        const session = await this.#reopen(client, params.sessionId, params.cwd, params.mcpServers);
        await replayHistory(session.run.session.path, {
          cwd: session.run.cwd,
          compactionEntities: this.#compactionEntities(),
          send: (update) => session.send(update),
        });
        await session.sender.flush();
        this.#announceAfterResponse(session);
        return { modes: session.modes(), configOptions: session.configOptions() };
      })
      .onRequest("session/list", async ({ params }) => {
        this.#requireInitialized("session/list");
        const cwd = params.cwd ?? process.cwd();
        return listSessionPage(cwd, this.#options.env, params.cursor ?? undefined);
      })
      .onRequest("session/close", async ({ params }) => {
        const session = this.#session(params.sessionId);
        this.sessions.delete(params.sessionId);
        await session.close();
        return {};
      })
      .onRequest("session/prompt", async ({ params }) => {
        const session = this.#session(params.sessionId);
        try {
          return { stopReason: await session.prompt(params.prompt, params._meta ?? undefined) };
        } catch (error) {
          if (error instanceof TurnFailure)
            throw new RequestError(-32603, error.message, {
              code: error.code,
              ...optional("hint", error.hint),
            });
          throw error;
        }
      })
      .onNotification("session/cancel", ({ params }) => {
        this.sessions.get(params.sessionId)?.cancel();
      })
      .onRequest("session/set_mode", ({ params }) => {
        const session = this.#session(params.sessionId);
        this.#setMode(session, params.modeId);
        return {};
      })
      .onRequest("session/set_config_option", async ({ params }) => {
        const session = this.#session(params.sessionId);
        if (!("value" in params) || typeof params.value !== "string")
          throw RequestError.invalidParams(undefined, `config option "${params.configId}" takes a value id`);
        if (params.configId === MODE_OPTION) this.#setMode(session, params.value);
        else if (params.configId === MODEL_OPTION) await this.#setModel(session, params.value);
        else throw RequestError.invalidParams(undefined, `unknown config option "${params.configId}"`);
        return { configOptions: session.configOptions() };
      });
  }

  /**
   * `initialize` has arrived: what the client can do is kept and session requests are served. Called
   * by the app's handler, or by `panto acp` when it answered the first `initialize` itself.
   */
  initialized(params: InitializeRequest): void {
    this.#capabilities = params.clientCapabilities ?? {};
    this.#initialized = true;
  }

  /** Closes every session (each turn cancelled and its entries written). */
  async closeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(sessions.map((session) => session.close()));
  }

  async #reopen(
    client: AgentContext,
    id: string,
    cwd: string,
    mcp: readonly McpServer[],
  ): Promise<AcpSession> {
    const open = this.sessions.get(id);
    if (open !== undefined) {
      // A client reattaching to a session this process holds gets the same run.
      return open;
    }
    return this.#open(client, cwd, mcp, { resume: id });
  }

  async #open(
    client: AgentContext,
    cwd: string,
    mcp: readonly McpServer[],
    where: Pick<RunOptions, "resume">,
  ): Promise<AcpSession> {
    if (!isAbsolute(cwd))
      throw RequestError.invalidParams(undefined, `cwd must be an absolute path (got "${cwd}")`);
    const folder = await stat(cwd).then(
      (info) => info.isDirectory(),
      () => false,
    );
    if (!folder) throw RequestError.invalidParams(undefined, `cwd ${cwd} is not a folder on this machine`);
    const { warn } = this.#options;
    const events = new RunEvents();
    let session: AcpSession | undefined;
    // Setup's warnings arrive before the session exists: they go to stderr alone.
    events.subscribe((event) => {
      if (session !== undefined) session.renderer.render(event);
      else if (event.type === "run-warning" || event.type === "warning") warn(event.message);
    });
    const fs = this.#capabilities.fs;
    const files =
      fs?.readTextFile === true && fs.writeTextFile === true ? clientFiles(client, () => idOf()) : undefined;
    const idOf = (): string => session?.id ?? "";
    const run = await startRun({
      options: {
        ...optional("model", this.#options.model),
        ...optional("sandbox", this.#options.sandbox),
        ...optional("maxTurns", this.#options.maxTurns),
        ...where,
        mcpServers: mcpServerSpecs(mcp),
      },
      io: { cwd, env: this.#options.env, version: this.#options.version, secrets: this.#options.secrets },
      events,
      frontEnd: {
        askApproval: async (call, _tool, request, origin) => {
          const current = session;
          if (current === undefined) return "deny";
          await current.sender.flush();
          const signal = current.turnSignal;
          const answer = await askPermission({
            client,
            sessionId: current.id,
            cwd,
            call,
            files,
            signal,
            ...optional("escapeReason", request.kind === "escape" ? request.reason : undefined),
            ...optional("origin", origin),
            ...optional("suggestedRules", request.kind === "tool" ? request.suggestedRules : undefined),
          });
          if (answer !== "cancelled") return answer;
          // A permission request answered "cancelled" is the user cancelling the turn.
          current.cancel();
          return "deny";
        },
        ...optional("files", files),
      },
    }).catch((error: unknown) => {
      const usage = asUsageError(error);
      if (usage === undefined) throw error;
      // A session to load or resume that this project does not have: the protocol's not-found.
      if (
        where.resume !== undefined &&
        /^--resume: (no session|this project .* has no sessions)/.test(usage.message)
      )
        throw new RequestError(-32002, `Resource not found: ${usage.message.replace(/^--resume: /, "")}`, {
          sessionId: where.resume,
        });
      throw setupRequestError(usage);
    });
    session = new AcpSession(run, {
      client,
      compactionEntities: this.#compactionEntities(),
      warn,
    });
    for (const notice of run.notices) this.#options.note(notice);
    this.sessions.set(session.id, session);
    await run.sessionStart();
    return session;
  }

  /**
   * The commands and usage of a session, sent once its response is on the wire: the SDK queues the
   * response as soon as the handler settles, before any callback of the next macrotask.
   */
  #announceAfterResponse(session: AcpSession): void {
    setImmediate(() => session.announce());
  }

  #compactionEntities(): boolean {
    return this.#capabilities.session?.compaction != null;
  }

  /** What the SDK's own gate said, for requests before `initialize`. */
  #requireInitialized(method: string): void {
    if (!this.#initialized)
      throw RequestError.invalidRequest(undefined, `ACP connection must be initialized before '${method}'`);
  }

  #session(id: string): AcpSession {
    this.#requireInitialized("a session request");
    const session = this.sessions.get(id);
    if (session === undefined)
      throw new RequestError(-32002, `Resource not found: no open session ${id} in this process`, {
        sessionId: id,
      });
    return session;
  }

  #setMode(session: AcpSession, modeId: string): void {
    const mode = approvalModeOf(modeId);
    if (mode === undefined) throw RequestError.invalidParams(undefined, `unknown mode "${modeId}"`);
    // The run's mode-changed event sends current_mode_update and config_option_update (AcpRenderer).
    session.run.approvals.setMode(mode);
  }

  async #setModel(session: AcpSession, model: string): Promise<void> {
    const outcome = await session.run.runCommand({ name: "model", args: model });
    session.renderer.commandOutcome("model", outcome);
    if (outcome.type !== "model-switched") {
      const reason = describeOutcome(outcome).error?.message;
      throw RequestError.invalidParams(undefined, reason ?? `could not switch to model "${model}"`);
    }
  }
}

/**
 * The error a session request gets when the run cannot start. Nothing the client sent is at fault
 * unless the setup says "usage": no model or no key is the auth-required error (the user must give
 * panto credentials or a model: the message says how), a config, sandbox or session problem the
 * agent's internal error, each with panto's code in `data.code`.
 */
function setupRequestError(usage: UsageError): RequestError {
  const data = { code: usage.kind };
  if (usage instanceof NoModelError || usage.kind === "auth")
    return RequestError.authRequired(data, usage.message);
  if (usage.kind === "usage") return RequestError.invalidParams(data, usage.message);
  return RequestError.internalError(data, usage.message);
}

/** `initialize`'s params as the client sent them, once `initializeParamsProblem` finds nothing wrong. */
function parseInitializeParams(params: unknown): InitializeRequest {
  const problem = initializeParamsProblem(params);
  if (problem !== undefined) throw RequestError.invalidParams(undefined, problem);
  return params as InitializeRequest;
}
