import type { PantoConfig } from "../config/index.js";
import { optional } from "../core/index.js";
import { InputQueue } from "../frontends/json/input-queue.js";
import type { PantoEvent } from "../frontends/json/json-event-schema.js";
import type { JsonEvent } from "../frontends/json/json-events.js";
import { jsonEventReporter } from "../frontends/json/run-json.js";
import { usageJson } from "../frontends/json/usage-json.js";
import { EXIT_OK, EXIT_USAGE } from "../frontends/shared/exit-status.js";
import { type OnceReporter, reportResult } from "../frontends/shared/run-once.js";
import type { RunContext } from "../runtime/run-context.js";
import { RunEvents } from "../runtime/run-events.js";
import { readRunUsage } from "../runtime/run-usage.js";
import { asUsageError } from "../runtime/setup/setup-errors.js";
import { startRun } from "../runtime/start-run.js";
import type { PantoOptions, TurnOptions } from "./panto-options.js";
import { PantoSetupError } from "./panto-setup-error.js";
import { permissionAsker } from "./permission-asker.js";
import { type RunResult, runResultOf } from "./run-result.js";

/** What every session of one `createPanto` starts with. */
export interface SessionSettings {
  options: PantoOptions;
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  config: { config: PantoConfig; source: string } | undefined;
}

/**
 * Where a session's events go: to the turn running (its stream), or kept for the next turn when
 * none runs (session_started, setup's notices, a warning between turns). Each is the object its
 * `--json` line holds, made by the JSON front-end and copied through JSON so it is exactly that.
 */
export class EventSink {
  #target: ((event: PantoEvent) => void) | undefined;
  readonly #kept: PantoEvent[] = [];

  /** `listener`: `PantoOptions.onEvent`, told every event at once (with the session's id then). */
  constructor(private readonly listener?: (event: PantoEvent) => void) {}

  readonly emit = (event: JsonEvent): void => {
    // The JSON front-end's objects are typed loosely; events-schema.test.ts holds them to the schema.
    const copy = JSON.parse(JSON.stringify(event)) as PantoEvent;
    if (this.listener !== undefined) {
      try {
        this.listener(JSON.parse(JSON.stringify(copy)) as PantoEvent);
      } catch {
        // The program's listener failed on this event: the session and its streams go on.
      }
    }
    if (this.#target === undefined) this.#kept.push(copy);
    else this.#target(copy);
  };

  /** The turn's stream gets what was kept first, then every event until `detach`. */
  attach(target: (event: PantoEvent) => void): void {
    for (const event of this.#kept.splice(0)) target(event);
    this.#target = target;
  }

  detach(): void {
    this.#target = undefined;
  }
}

/** Starts a session (`resume`: the id prefix or path of one to continue) with the CLI's setup. */
export async function startPantoSession(settings: SessionSettings, resume?: string): Promise<PantoSession> {
  const { options } = settings;
  const listener = options.onEvent;
  // The session's id as it is when the event comes (a `/clear` starts a new one).
  const sessionRef: { current?: () => string } = {};
  const sink = new EventSink(
    listener === undefined ? undefined : (event) => listener(event, { id: sessionRef.current?.() ?? "" }),
  );
  const reporter = jsonEventReporter(sink.emit, undefined);
  const events = new RunEvents();
  // A command's outcome is reported from submit's result, as in JSON mode.
  events.subscribe((event) => {
    if (event.type !== "command") reporter.event(event);
  });
  const turn: { signal: AbortSignal | undefined } = { signal: undefined };
  let run: RunContext;
  try {
    run = await startRun({
      options: {
        ...optional("model", options.model),
        ...optional("resume", resume),
        allowTools: options.allowTools === true,
        ...optional("sandbox", options.sandbox),
        ...optional("maxTurns", options.maxTurns),
      },
      io: { cwd: settings.cwd, env: settings.env, version: settings.version },
      events,
      frontEnd:
        options.onPermission === undefined
          ? {}
          : { askApproval: permissionAsker(options.onPermission, sink.emit, () => turn.signal) },
      ...optional("config", settings.config),
    });
  } catch (error) {
    throw setupError(error);
  }
  sessionRef.current = () => run.session.header.id;
  try {
    reporter.started(run);
    for (const notice of run.notices) reporter.event({ type: "run-notice", message: notice });
    await run.sessionStart();
  } catch (error) {
    await run.close();
    throw setupError(error);
  }
  return new PantoSession(run, reporter, sink, turn);
}

function setupError(error: unknown): unknown {
  const usage = asUsageError(error);
  return usage === undefined ? error : new PantoSetupError(usage.message, usage.kind, { cause: error });
}

/**
 * One conversation held open in this process: its turns run one at a time in the order asked, each
 * through `run.submit` as if typed in the terminal (a slash command and `!COMMAND` work), and
 * report the `--json` events, ending with `result`. A session keeps all its state itself, so one
 * process may hold several, running at once.
 */
export class PantoSession {
  readonly #run: RunContext;
  readonly #reporter: OnceReporter;
  readonly #sink: EventSink;
  readonly #turn: { signal: AbortSignal | undefined };
  #tail: Promise<unknown> = Promise.resolve();
  #active: AbortController | undefined;
  #closing = false;
  #closed: Promise<void> | undefined;

  /** @internal made by `Panto.startSession` and `Panto.resumeSession`. */
  constructor(
    run: RunContext,
    reporter: OnceReporter,
    sink: EventSink,
    turn: { signal: AbortSignal | undefined },
  ) {
    this.#run = run;
    this.#reporter = reporter;
    this.#sink = sink;
    this.#turn = turn;
  }

  /** The session's id (what `panto -r` and `resumeSession` take); a `/clear` starts a new one. */
  get id(): string {
    return this.#run.session.header.id;
  }

  /** The session file. */
  get path(): string {
    return this.#run.session.path;
  }

  /** The active "provider/model". */
  get model(): string {
    return this.#run.agent.model;
  }

  /** True when the session file held a conversation before this session opened it. */
  get resumed(): boolean {
    return this.#run.resumed;
  }

  /**
   * Sends one input and yields its events as `--json` writes them, the last one `result`; the
   * events before the first turn (session_started, notices) come first. Stopping the iteration
   * early stops the turn, as the signal does.
   */
  async *stream(prompt: string, options: TurnOptions = {}): AsyncGenerator<PantoEvent, void, undefined> {
    if (this.#closing) throw new Error("this panto session is closed");
    const events = new InputQueue<PantoEvent>();
    const turn = new AbortController();
    const stop = (): void => turn.abort();
    if (options.signal?.aborted === true) turn.abort();
    else options.signal?.addEventListener("abort", stop, { once: true });
    const ended = this.#enqueue(() => this.#runTurn(prompt, turn, (event) => events.push(event)));
    ended.finally(() => events.close()).catch(() => {});
    try {
      for (let event = await events.next(); event !== undefined; event = await events.next()) yield event;
      await ended;
    } finally {
      options.signal?.removeEventListener("abort", stop);
      turn.abort();
      await ended.catch(() => {});
    }
  }

  /** Sends one input and resolves with how it ended (the answer, usage, the session id, its events). */
  async run(prompt: string, options: TurnOptions = {}): Promise<RunResult> {
    const events: PantoEvent[] = [];
    for await (const event of this.stream(prompt, options)) events.push(event);
    return runResultOf(events);
  }

  /** Compacts the conversation now (`/compact`), with `instructions` for the summary if given. */
  compact(instructions?: string, options: TurnOptions = {}): Promise<RunResult> {
    const given = instructions?.trim() ?? "";
    return this.run(given === "" ? "/compact" : `/compact ${given}`, options);
  }

  /**
   * Stops the running turn, lets the queued ones report that they did not run, and closes the
   * session (its file, lock, MCP servers and sandbox). Later calls resolve the same way.
   */
  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#closing = true;
      this.#active?.abort();
      await this.#tail;
      await this.#run.close();
    })();
    return this.#closed;
  }

  #enqueue(work: () => Promise<void>): Promise<void> {
    const next = this.#tail.then(work);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  async #runTurn(prompt: string, turn: AbortController, target: (event: PantoEvent) => void): Promise<void> {
    this.#sink.attach(target);
    this.#active = turn;
    this.#turn.signal = turn.signal;
    const reporter: OnceReporter = {
      ...this.#reporter,
      done: (exitCode, text) => this.#result(exitCode, text),
    };
    try {
      if (this.#closing) {
        reporter.failure({ code: "not_run", message: "not run: the session was closed before it" });
        await reporter.done(EXIT_USAGE);
        return;
      }
      await reportResult(reporter, this.#run, await this.#run.submit(prompt, { signal: turn.signal }));
    } catch (error) {
      // A session that fails at a write is the user's to fix (as in JSON mode): this turn fails.
      const usage = asUsageError(error);
      if (usage === undefined) throw error;
      reporter.failure({ code: usage.kind, message: usage.message });
      await reporter.done(EXIT_USAGE);
    } finally {
      this.#turn.signal = undefined;
      this.#active = undefined;
      this.#sink.detach();
    }
  }

  /** stream-json's per-input `result` (without a stdin line): exit status, text, session and its usage. */
  async #result(exitCode: number, text: string | undefined): Promise<void> {
    const usage = usageJson(await readRunUsage(this.#run));
    this.#sink.emit({
      type: "result",
      exit_code: exitCode,
      is_error: exitCode !== EXIT_OK,
      ...optional("text", text),
      session_id: this.#run.session.header.id,
      usage,
    });
  }
}
