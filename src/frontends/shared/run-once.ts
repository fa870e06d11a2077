import { optional } from "../../core/index.js";
import type { CommandOutcome } from "../../runtime/command-outcome.js";
import { parseSlashCommand } from "../../runtime/command-registry.js";
import { builtInCommandInfo, slashHelpText } from "../../runtime/commands/built-in-commands.js";
import { helpCommands } from "../../runtime/commands/help-commands.js";
import { describeOutcome } from "../../runtime/outcome-text.js";
import type { RunContext } from "../../runtime/run-context.js";
import { type RunEvent, RunEvents } from "../../runtime/run-events.js";
import { asUsageError, UsageError } from "../../runtime/setup/setup-errors.js";
import { startRun } from "../../runtime/start-run.js";
import { inputRefusal } from "../../runtime/submit-input.js";
import type { TurnResult, UserInput } from "../../runtime/turn-result.js";
import type { SecretRedactor } from "../../secrets/index.js";
import type { CliOptions } from "./cli-options.js";
import {
  EXIT_FAILURE,
  EXIT_INTERRUPTED,
  EXIT_MAX_TURNS,
  EXIT_OK,
  EXIT_USAGE,
  exitStatusOf,
} from "./exit-status.js";
import { runOptionsOf } from "./run-options-of.js";

/** How print mode and JSON mode each show what happens during one prompt. */
export interface OnceReporter {
  started(run: RunContext): void;
  /**
   * Every event of the run but a command's outcome, setup's warnings included; also the notices
   * said at start (as `run-notice`s).
   */
  event(event: Exclude<RunEvent, { type: "command" }>): void;
  /** The final assistant text, or a slash command's report. */
  output(text: string): void;
  /** A slash command's outcome as data, before its report (JSON mode turns some into events). */
  outcome?(outcome: CommandOutcome): void;
  /** Why the run or its command failed (a command's with no hint). */
  failure(error: { code: string; message: string; hint?: string }): void;
  /** The run ended with `exitCode`: the last thing reported (awaited before the run closes). */
  done(exitCode: number, text?: string): void | Promise<void>;
}

export interface OnceIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** All of stdin at once when it is a file or the null device (see CliIo.stdinText). */
  stdinText?: () => string | undefined;
  /** Where a note about waiting for piped input goes (stdout carries the answer or JSON). */
  stderr?: NodeJS.WritableStream;
  secrets?: SecretRedactor;
}

/** How long piped input may stay silent and open before panto says it is waiting for it. */
const STDIN_WAIT_NOTE_MS = 3_000;

/**
 * Print and JSON mode: one prompt (or one slash command) from -p or stdin, then exit. Write, edit
 * and bash run only with --allow-tools: there is nobody to ask. The first Ctrl-C cancels the
 * request; a second one exits.
 */
export async function runOnce(options: CliOptions, io: OnceIo, reporter: OnceReporter): Promise<number> {
  const controller = new AbortController();
  const stopListening = listenForInterrupt(controller);
  try {
    const exitCode = await runOnceInner(options, io, reporter, controller.signal);
    return controller.signal.aborted && exitCode !== EXIT_OK ? EXIT_INTERRUPTED : exitCode;
  } finally {
    stopListening();
  }
}

async function runOnceInner(
  options: CliOptions,
  io: OnceIo,
  reporter: OnceReporter,
  signal: AbortSignal,
): Promise<number> {
  let run: RunContext;
  let input: UserInput;
  try {
    const given = await readPrompt(options, io, waitingNote(io.stderr));
    if (isHelpCommand(given.prompt)) return finish(reporter, EXIT_OK, slashHelpText(await helpCommands(io)));
    input = {
      text: given.prompt,
      ...optional("stdin", given.piped),
      ...optional("imageFiles", options.images),
    };
    // Input that cannot run is refused before any setup (no session is started for it).
    const refusal = inputRefusal(input);
    if (refusal !== undefined) throw new UsageError(refusal.message);
    const events = new RunEvents();
    // A command's outcome is reported from submit's result; its `command` notification is not shown.
    events.subscribe((event) => {
      if (event.type !== "command") reporter.event(event);
    });
    run = await startRun({
      options: runOptionsOf(options),
      io,
      events,
      // The editor's own output goes to stderr, so stdout keeps only the report (or JSON lines).
      // The editor (and node:child_process) loads when a command first asks for it, not with every run.
      frontEnd: {
        editText: async (text) =>
          (await import("./edit-in-editor.js")).editorFor(io.env, ["inherit", 2, "inherit"])(text),
        oneShot: true,
      },
    });
  } catch (error) {
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    reporter.failure({ code: usage.kind, message: usage.message });
    await reporter.done(EXIT_USAGE);
    return EXIT_USAGE;
  }
  try {
    reporter.started(run);
    for (const notice of run.notices) reporter.event({ type: "run-notice", message: notice });
    await run.sessionStart();
    if (signal.aborted) {
      reporter.failure({ code: "aborted", message: "interrupted before the prompt was sent" });
      await reporter.done(EXIT_INTERRUPTED);
      return EXIT_INTERRUPTED;
    }
    const result = await run.submit(input, { signal });
    // The run ends here: its background commands stop now, so their ends are told before `done`.
    await run.tasks.close();
    return await reportResult(reporter, run, result);
  } catch (error) {
    // A session or folder that fails at its first write (after setup found it usable) is still the user's to fix.
    const usage = asUsageError(error);
    if (usage === undefined) throw error;
    reporter.failure({ code: usage.kind, message: usage.message });
    await reporter.done(EXIT_USAGE);
    return EXIT_USAGE;
  } finally {
    await run.close();
  }
}

/**
 * How the input ended, as print and JSON modes report it: output, error, and the exit status
 * (stream-json reports each of its turns so, its `done` emitting the turn's `result`).
 */
export async function reportResult(
  reporter: OnceReporter,
  run: RunContext,
  result: TurnResult,
): Promise<number> {
  switch (result.type) {
    case "command": {
      reportOutcome(reporter, result.outcome);
      const report = describeOutcome(result.outcome);
      const exitCode = exitStatusOf(report.error);
      await reporter.done(exitCode, ...(report.text === "" ? [] : [report.text]));
      return exitCode;
    }
    case "shell":
      reporter.output(result.output);
      if (!result.isError) {
        await reporter.done(EXIT_OK, result.output);
        return EXIT_OK;
      }
      reporter.failure({
        code: "shell_failed",
        message: `!${result.command} failed (its output is the text)`,
      });
      await reporter.done(EXIT_FAILURE, result.output);
      return EXIT_FAILURE;
    case "refused":
      reporter.failure({ code: result.code, message: result.message });
      await reporter.done(EXIT_USAGE);
      return EXIT_USAGE;
    case "answered":
      if (result.maxTurnsReached === true) return await stoppedAtMaxTurns(reporter, run);
      return await finish(reporter, EXIT_OK, result.text);
    case "prompt-failed": {
      reporter.failure({ code: result.code, message: result.message, ...optional("hint", result.hint) });
      const exitCode = result.code === "aborted" ? EXIT_INTERRUPTED : EXIT_FAILURE;
      await reporter.done(exitCode);
      return exitCode;
    }
  }
}

async function finish(reporter: OnceReporter, exitCode: number, text: string): Promise<number> {
  reporter.output(text);
  await reporter.done(exitCode, text);
  return exitCode;
}

/** A command's report: its text as the output, its failure as one. */
function reportOutcome(reporter: OnceReporter, outcome: CommandOutcome): void {
  reporter.outcome?.(outcome);
  const report = describeOutcome(outcome);
  if (report.text !== "") reporter.output(report.text);
  if (report.error !== undefined)
    reporter.failure({ code: report.error.code, message: report.error.message });
}

/** --max-turns ran out while the model still wanted tools: an `error` with code max_turns, exit 3. */
async function stoppedAtMaxTurns(reporter: OnceReporter, run: RunContext): Promise<number> {
  const requests = run.maxTurns === 1 ? "1 model request" : `${run.maxTurns} model requests`;
  reporter.failure({
    code: "max_turns",
    message: `stopped after ${requests} (--max-turns ${run.maxTurns}); the model had not finished`,
    hint: `The work so far is kept in the session; continue it with panto -r ${run.session.header.id.slice(0, 8)}.`,
  });
  await reporter.done(EXIT_MAX_TURNS);
  return EXIT_MAX_TURNS;
}

/** /help needs no model, key or session, so it answers before any setup. */
function isHelpCommand(prompt: string): boolean {
  const command = parseSlashCommand(prompt);
  return command !== undefined && builtInCommandInfo().find(command.name)?.name === "help";
}

/** What the user gave: the prompt, and what was piped on stdin beside a -p value (when not empty). */
export interface GivenPrompt {
  prompt: string;
  piped?: string;
}

/**
 * The -p value, else all of stdin when it is not a terminal. With both, stdin is read to its end
 * too and comes back as `piped` (`git diff | panto -p "review this"`): nothing given is dropped.
 */
export async function readPrompt(
  options: CliOptions,
  io: Pick<OnceIo, "stdin" | "stdinText">,
  onSlowInput: () => void = () => {},
): Promise<GivenPrompt> {
  const prompt = options.prompt;
  // A file or the null device is read at once, without the stream (which only io.stdin makes).
  const whole = io.stdinText?.();
  if (prompt === undefined) {
    if (whole === undefined && io.stdin.isTTY === true)
      throw new UsageError('-p needs a prompt: panto -p "PROMPT", or pipe the prompt on stdin');
    const read = (whole ?? (await readAll(io.stdin, onSlowInput))).trim();
    if (read === "") throw new UsageError("the prompt is empty");
    return { prompt: read };
  }
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  if (whole === undefined && io.stdin.isTTY === true) return { prompt: prompt.trim() };
  const piped = (whole ?? (await readAll(io.stdin, onSlowInput))).replace(/\s+$/, "");
  return piped.trim() === "" ? { prompt: prompt.trim() } : { prompt: prompt.trim(), piped };
}

/**
 * Reads a stream to its end. A pipe left open with nothing in it would wait forever, silently:
 * after a few seconds without a byte, `onSlow` says so once (the wait goes on, nothing is dropped).
 */
async function readAll(stream: NodeJS.ReadableStream, onSlow: () => void): Promise<string> {
  const chunks: Buffer[] = [];
  const timer = setTimeout(onSlow, STDIN_WAIT_NOTE_MS);
  try {
    for await (const chunk of stream) {
      clearTimeout(timer);
      chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
    }
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function waitingNote(stderr: NodeJS.WritableStream | undefined): () => void {
  return () =>
    stderr?.write(
      "panto: waiting for stdin to end (it is not a terminal, so what is piped there is sent too); give </dev/null to send nothing from it\n",
    );
}

/** First SIGINT cancels the request (the run then exits 130); a second one exits at once. */
function listenForInterrupt(controller: AbortController): () => void {
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  return () => process.off("SIGINT", onSigint);
}
