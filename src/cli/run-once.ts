import { optional } from "../core/index.js";
import type { CommandOutcome } from "../runtime/command-outcome.js";
import { parseSlashCommand } from "../runtime/command-registry.js";
import { builtInCommandInfo, slashHelpText } from "../runtime/commands/built-in-commands.js";
import { helpCommands } from "../runtime/commands/help-commands.js";
import { describeOutcome } from "../runtime/outcome-text.js";
import type { RunContext } from "../runtime/run-context.js";
import { type RunEvent, RunEvents } from "../runtime/run-events.js";
import { asUsageError, UsageError } from "../runtime/setup/setup-errors.js";
import { startRun } from "../runtime/start-run.js";
import type { SecretRedactor } from "../secrets/index.js";
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
import { editorFor } from "./terminal/edit-in-editor.js";

/** How print mode and JSON mode each show what happens during one prompt. */
export interface OnceReporter {
  started(run: RunContext): void;
  /**
   * Every event of the run but a command's outcome, setup's warnings included; also the notices
   * said at start (as `run-warning`s).
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
  secrets?: SecretRedactor;
}

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
  let prompt: string;
  try {
    prompt = await readPrompt(options, io.stdin);
    if (isHelpCommand(prompt)) return finish(reporter, EXIT_OK, slashHelpText(await helpCommands(io)));
    const events = new RunEvents();
    events.subscribe((event) =>
      event.type === "command" ? reportOutcome(reporter, event.outcome) : reporter.event(event),
    );
    run = await startRun({
      options: runOptionsOf(options),
      io,
      events,
      // The editor's own output goes to stderr, so stdout keeps only the report (or JSON lines).
      frontEnd: { editText: editorFor(io.env, ["inherit", 2, "inherit"]) },
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
    for (const notice of run.notices) reporter.event({ type: "run-warning", message: notice });
    await run.sessionStart();
    if (signal.aborted) {
      reporter.failure({ code: "aborted", message: "interrupted before the prompt was sent" });
      await reporter.done(EXIT_INTERRUPTED);
      return EXIT_INTERRUPTED;
    }
    const command = parseSlashCommand(prompt);
    if (command !== undefined) {
      const report = describeOutcome(await run.runCommand(command, signal));
      const exitCode = exitStatusOf(report.error);
      await reporter.done(exitCode, ...(report.text === "" ? [] : [report.text]));
      return exitCode;
    }
    const limit = options.maxTurns === undefined ? {} : { maxRequests: options.maxTurns };
    const result = await run.agent.prompt(prompt, { signal, ...limit });
    if (result.ok && result.stopped === "max-requests")
      return await stoppedAtMaxTurns(reporter, run, options);
    if (result.ok) return await finish(reporter, EXIT_OK, result.text);
    reporter.failure({
      code: result.error.code,
      message: result.error.message,
      ...optional("hint", result.hint),
    });
    const exitCode = result.error.code === "aborted" ? EXIT_INTERRUPTED : EXIT_FAILURE;
    await reporter.done(exitCode);
    return exitCode;
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
async function stoppedAtMaxTurns(
  reporter: OnceReporter,
  run: RunContext,
  options: CliOptions,
): Promise<number> {
  const requests = options.maxTurns === 1 ? "1 model request" : `${options.maxTurns} model requests`;
  reporter.failure({
    code: "max_turns",
    message: `stopped after ${requests} (--max-turns ${options.maxTurns}); the model had not finished`,
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

/** The -p value, else all of stdin when it is not a terminal. */
export async function readPrompt(
  options: CliOptions,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
): Promise<string> {
  let prompt = options.prompt;
  if (prompt === undefined) {
    if (stdin.isTTY === true)
      throw new UsageError('-p needs a prompt: panto -p "PROMPT", or pipe the prompt on stdin');
    prompt = await readAll(stdin);
  }
  if (prompt.trim() === "") throw new UsageError("the prompt is empty");
  return prompt.trim();
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
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
