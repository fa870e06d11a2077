import { createInterface } from "node:readline";
import { optional } from "../../core/index.js";
import type { RunContext } from "../../runtime/run-context.js";
import { readRunUsage } from "../../runtime/run-usage.js";
import { asUsageError } from "../../runtime/setup/setup-errors.js";
import type { TurnResult, UserInput } from "../../runtime/turn-result.js";
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE } from "../shared/exit-status.js";
import { type OnceReporter, reportResult } from "../shared/run-once.js";
import { InputQueue } from "./input-queue.js";
import type { JsonEvent } from "./json-events.js";
import type { PermissionQuestions } from "./permission-questions.js";
import { parseStreamMessage, type RequestId, type StreamMessage } from "./stream-message.js";
import { usageJson } from "./usage-json.js";

/** One user message read from stdin, waiting for its turn: the input and the line it came on. */
interface QueuedInput {
  input: UserInput;
  line: number;
  turn: AbortController;
}

export interface StreamJsonParts {
  /** JSON mode's reporter: the run's events as `--json` lines, `error`s, and the final `done`. */
  reporter: OnceReporter;
  emit: (event: JsonEvent) => void;
  questions: PermissionQuestions;
}

/**
 * The stdin side of a stream-json run: reads one message a line while turns run, queues user
 * messages and runs them one at a time in order through `run.submit`, answers interrupts and
 * permission responses at once, and reports each bad line as an `error` naming its line number.
 * The exit status is 0 when every input succeeded and every line was read, else the last
 * failure's: a turn's own status (1, 2, 3, 130), 2 for a line that could not be read.
 */
export class StreamJsonSession {
  readonly #parts: StreamJsonParts;
  readonly #queue = new InputQueue<QueuedInput>();
  /**
   * The input taken to run and not finished: an interrupt stops it, also when it was read in the
   * same chunk as the interrupt and has not reached the model yet.
   */
  #active: QueuedInput | undefined;
  /** The loop waits for input: the next user message becomes the active one as it is read. */
  #idle = false;
  #exitCode = EXIT_OK;
  #stopInput: () => void = () => {};

  constructor(parts: StreamJsonParts) {
    this.#parts = parts;
  }

  /** The running turn's abort signal (a permission question it overtakes is denied). */
  get turnSignal(): AbortSignal | undefined {
    return this.#active?.turn.signal;
  }

  /** Reads `stdin` to its end and runs every user message on it; resolves with the exit status. */
  async serve(run: RunContext, stdin: NodeJS.ReadableStream): Promise<number> {
    const lines = createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
    let lineNumber = 0;
    lines.on("line", (line) => {
      lineNumber += 1;
      if (line.trim() !== "") this.#read(parseStreamMessage(line), lineNumber);
    });
    lines.on("close", () => {
      this.#parts.questions.close();
      this.#queue.close();
    });
    this.#stopInput = () => lines.close();
    const stopListening = this.#listenForInterrupt();
    try {
      for (let next = await this.#next(); next !== undefined; next = await this.#next()) {
        this.#active = next;
        await this.#runTurn(run, next);
        this.#active = undefined;
      }
    } finally {
      stopListening();
      lines.close();
    }
    return this.#exitCode;
  }

  #next(): Promise<QueuedInput | undefined> {
    this.#idle = this.#queue.length === 0;
    return this.#queue.next();
  }

  #read(message: StreamMessage, line: number): void {
    switch (message.type) {
      case "user": {
        const queued = { input: message.input, line, turn: new AbortController() };
        if (this.#idle) this.#active = queued;
        this.#idle = false;
        this.#queue.push(queued);
        return;
      }
      case "interrupt":
        this.#active?.turn.abort();
        this.#controlResponse(message.requestId);
        return;
      case "unsupported-control":
        this.#parts.emit({
          type: "control_response",
          response: {
            subtype: "error",
            request_id: message.requestId,
            error: `panto does not take control requests of subtype ${JSON.stringify(message.subtype)} (only "interrupt")`,
          },
        });
        return;
      case "permission-response":
        if (!this.#parts.questions.answer(message.id, message.decision))
          this.#lineError(
            line,
            `no permission request ${JSON.stringify(message.id)} is waiting for an answer`,
          );
        return;
      case "malformed":
        this.#lineError(line, message.message);
        return;
    }
  }

  /** Claude Code's acknowledgement of a control request. */
  #controlResponse(requestId: RequestId): void {
    this.#parts.emit({ type: "control_response", response: { subtype: "success", request_id: requestId } });
  }

  #lineError(line: number, message: string): void {
    this.#parts.emit({ type: "error", code: "usage", message: `stdin line ${line}: ${message}` });
    this.#exitCode = EXIT_USAGE;
  }

  /** Runs one input and reports how it ended: its events, then `error` when it failed, then `result`. */
  async #runTurn(run: RunContext, queued: QueuedInput): Promise<void> {
    const { turn } = queued;
    const reporter: OnceReporter = {
      ...this.#parts.reporter,
      done: async (exitCode, text) => this.#result(run, queued.line, exitCode, text),
    };
    try {
      const result = await run.submit(queued.input, { signal: turn.signal });
      const exitCode = await reportResult(reporter, run, result);
      if (exitCode !== EXIT_OK) this.#exitCode = exitCode;
      if (asksToExit(result)) this.#endSession();
    } catch (error) {
      // A session that fails at a write is the user's to fix (as in one-shot JSON): this input fails.
      const usage = asUsageError(error);
      if (usage === undefined) throw error;
      reporter.failure({ code: usage.kind, message: usage.message });
      await reporter.done(EXIT_USAGE);
      this.#exitCode = EXIT_USAGE;
    }
  }

  /** The per-input `result`: its exit status, text, the session it ran in and the session's usage so far. */
  async #result(run: RunContext, line: number, exitCode: number, text: string | undefined): Promise<void> {
    const usage = usageJson(await readRunUsage(run));
    this.#parts.emit({
      type: "result",
      line,
      exit_code: exitCode,
      is_error: exitCode !== EXIT_OK,
      ...optional("text", text),
      session_id: run.session.header.id,
      usage,
    });
  }

  /** `/exit` or Ctrl-C: no more lines are read, and the inputs still queued are not run (each said so). */
  #endSession(): void {
    this.#stopInput();
    for (const queued of this.#queue.drain())
      this.#parts.emit({
        type: "error",
        code: "not_run",
        message: `stdin line ${queued.line}: not run: the session ended before it`,
      });
  }

  /** The first SIGINT interrupts the running turn and ends the session (exit 130); a second exits at once. */
  #listenForInterrupt(): () => void {
    let interrupted = false;
    const onSigint = (): void => {
      if (interrupted) process.exit(EXIT_INTERRUPTED);
      interrupted = true;
      this.#exitCode = EXIT_INTERRUPTED;
      this.#active?.turn.abort();
      this.#endSession();
    };
    process.on("SIGINT", onSigint);
    return () => process.off("SIGINT", onSigint);
  }
}

function asksToExit(result: TurnResult): boolean {
  return result.type === "command" && result.outcome.type === "exit";
}
