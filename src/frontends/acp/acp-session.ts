import type { AgentContext, ContentBlock, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import { optional } from "../../core/index.js";
import type { RunContext } from "../../runtime/run-context.js";
import type { TurnResult } from "../../runtime/turn-result.js";
import { composeCompactionSummary } from "../../session/index.js";
import { flaggedTodos } from "../../todos/index.js";
import { AcpRenderer } from "./acp-renderer.js";
import { availableCommands } from "./available-commands.js";
import { toUserInput, withCommandOptions } from "./prompt-input.js";
import { configOptions, sessionModes } from "./session-config.js";
import { UpdateSender } from "./update-sender.js";
import { usageUpdate } from "./usage-update.js";

/** What a session is made with besides its run. */
export interface AcpSessionOptions {
  client: AgentContext;
  /** The client advertised `session.compaction`. */
  compactionEntities: boolean;
  /** A warning for the user (stderr; stdout carries the protocol alone). */
  warn: (message: string) => void;
}

/** Why a prompt failed in a way the protocol has no stop reason for (a provider error). */
export class TurnFailure extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly hint: string | undefined,
  ) {
    super(message);
    this.name = "TurnFailure";
  }
}

/**
 * One ACP session: a panto run (its session file, agent and commands) and how the editor sees it.
 * One prompt runs at a time: a second one while a turn runs is refused (the documented behaviour),
 * so a turn is never interleaved with another. `cancel` aborts the turn in flight, its stream and
 * its tools (child processes included), and the prompt answers `cancelled`.
 */
export class AcpSession {
  readonly run: RunContext;
  readonly sender: UpdateSender;
  readonly renderer: AcpRenderer;
  /** Models the user switched to in this session, offered in the model option afterwards. */
  readonly #models = new Set<string>();
  #turn: AbortController | undefined;
  #running: Promise<unknown> | undefined;
  #ids = 0;

  constructor(run: RunContext, options: AcpSessionOptions) {
    this.run = run;
    this.sender = new UpdateSender(options.client, run.session.header.id, (error) =>
      options.warn(`could not send an update to the client: ${String(error)}`),
    );
    this.renderer = new AcpRenderer({
      out: this.sender,
      cwd: run.cwd,
      compactionEntities: options.compactionEntities,
      newId: () => this.newId(),
      usage: () => usageUpdate(run),
      warn: options.warn,
      activeSummary: () => {
        const active = run.session.activeCompaction();
        if (active === undefined) return undefined;
        const summary = composeCompactionSummary({
          summary: active.summary,
          ...optional("restored", active.restored),
        });
        return { id: active.id, summary, ...optional("editedFrom", active.editedFrom) };
      },
      todos: () => flaggedTodos(run.session),
      configChanged: () => {
        this.#models.add(run.agent.model);
        this.sender.send({ sessionUpdate: "config_option_update", configOptions: this.configOptions() });
      },
    });
  }

  get id(): string {
    return this.run.session.header.id;
  }

  /** A fresh id for a message or compaction this connection announces. */
  newId(): string {
    this.#ids += 1;
    return `${this.id.slice(0, 8)}-${this.#ids}`;
  }

  /** The abort signal of the turn in flight, if any. */
  get turnSignal(): AbortSignal | undefined {
    return this.#turn?.signal;
  }

  modes(): ReturnType<typeof sessionModes> {
    return sessionModes(this.run);
  }

  configOptions(): ReturnType<typeof configOptions> {
    return configOptions(this.run, [...this.#models]);
  }

  /**
   * The updates sent after a session/new, load or resume response: its commands, usage, and the
   * task list in force as a `plan` (a loaded or resumed session's; a new one has none to send).
   */
  announce(): void {
    const commands = availableCommands(this.run.commands.list());
    this.sender.send({ sessionUpdate: "available_commands_update", availableCommands: commands });
    this.sender.later(() => usageUpdate(this.run));
    this.renderer.syncPlan();
  }

  /** Sends an update in order with the rest. */
  send(update: SessionUpdate): void {
    this.sender.send(update);
  }

  /** Runs one `session/prompt`: a slash command or a model turn. Resolves once its updates are written. */
  async prompt(blocks: readonly ContentBlock[], meta?: Record<string, unknown>): Promise<StopReason> {
    if (this.#turn !== undefined)
      throw new TurnFailure(
        "a prompt is already running in this session; wait for it to end or cancel it",
        "busy",
        undefined,
      );
    const turn = new AbortController();
    this.#turn = turn;
    const running = this.#runPrompt(blocks, meta, turn.signal);
    this.#running = running;
    try {
      return await running;
    } finally {
      this.renderer.closeOpenCalls("Interrupted before it ran.");
      // The list as it stands after the prompt: a command may have changed it, a flag cleared.
      this.renderer.syncPlan();
      // A context warning the turn's last answer raised goes out before the response.
      await this.run.contextWatch.settled();
      await this.sender.flush();
      this.#turn = undefined;
      this.#running = undefined;
    }
  }

  async #runPrompt(
    blocks: readonly ContentBlock[],
    meta: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<StopReason> {
    const given = withCommandOptions(toUserInput(blocks), meta);
    if (given.type === "unsupported") throw new TurnFailure(given.message, "unsupported", undefined);
    this.renderer.lastStop = undefined;
    const result = await this.run.submit(given.input, { signal });
    return this.#stopReason(result, signal);
  }

  /** How a submitted prompt ended, as the protocol's stop reason (a command's outcome is sent first). */
  #stopReason(result: TurnResult, signal: AbortSignal): StopReason {
    switch (result.type) {
      case "command": {
        this.renderer.commandOutcome(result.name, result.outcome);
        if (signal.aborted) return "cancelled";
        const { outcome } = result;
        // A custom command's prompt stopped by --max-turns stops as a prompt would.
        return outcome.type === "failed" && outcome.status === "max-turns" ? "max_turn_requests" : "end_turn";
      }
      case "shell":
        this.renderer.shellRun(result.command, result.output, result.isError);
        return signal.aborted ? "cancelled" : "end_turn";
      case "refused":
        throw new TurnFailure(result.message, result.code, undefined);
      case "answered":
        if (result.maxTurnsReached === true) return "max_turn_requests";
        if (this.renderer.lastStop === "length") return "max_tokens";
        if (this.renderer.lastStop === "content-filter") return "refusal";
        return "end_turn";
      case "prompt-failed":
        if (signal.aborted || result.code === "aborted") return "cancelled";
        throw new TurnFailure(result.message, result.code, result.hint);
    }
  }

  /** Stops the turn in flight (stream, tools, a pending permission question). */
  cancel(): void {
    this.#turn?.abort();
  }

  /** Cancels any turn, waits for it to settle (its entries written) and closes the session file. */
  async close(): Promise<void> {
    this.cancel();
    await this.#running?.catch(() => undefined);
    await this.sender.flush();
    await this.run.close();
  }
}
