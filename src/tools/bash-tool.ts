import { stat } from "node:fs/promises";
import { optional } from "../core/index.js";
import type { SandboxPolicy } from "../sandbox/index.js";
import { toolEnvironment } from "../secrets/index.js";
import type { BackgroundTaskInfo, BackgroundTasks } from "./background-tasks.js";
import { describeSandboxForCommands, sandboxFailureHint } from "./bash-sandbox-text.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import type { CommandResult } from "./run-process.js";
import type { Tool, ToolContext, ToolOutput } from "./tool.js";
import { ToolError } from "./tool-error.js";

export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Output characters kept (half from the start, half from the end). */
export const MAX_BASH_OUTPUT_CHARS = 30_000;

export const bashSchema = (z: Zod) =>
  z.strictObject({
    command: z.string().min(1).describe("The command line, run with /bin/bash -c in the working directory."),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(MAX_BASH_TIMEOUT_MS)
      .optional()
      .describe(`Milliseconds before the command is killed (default ${DEFAULT_BASH_TIMEOUT_MS}).`),
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        "Start the command and return at once with a task id (for servers, watchers, long builds): read its output " +
          "with bash_output, stop it with kill_task; you are told when it ends. timeout_ms does not apply.",
      ),
    unsandboxed_reason: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Only when the command cannot work inside the sandbox (it needs the network, or to write outside the " +
          "writable folders): why, in one sentence for the user. Asks the user every time; leave it out otherwise.",
      ),
  });

/**
 * Runs a shell command; stdin is closed, so interactive programs get EOF instead of hanging.
 * Commands get `options.env`, by default this process's environment without the variables whose
 * names look secret (API keys, tokens, passwords: see toolEnvironment), read when the tool runs.
 * With `ToolContext.sandbox`, the command runs confined (a call with `unsandboxed_reason` reaches
 * this tool without one only once the user allowed it; see runToolCalls). `options.sandbox` only
 * words the description the model reads.
 */
export function createBashTool(
  options: { env?: NodeJS.ProcessEnv; sandbox?: SandboxPolicy; tasks?: BackgroundTasks } = {},
): Tool {
  return defineBuiltInTool({
    name: "bash",
    kind: "exec",
    description:
      "Run a shell command with /bin/bash -c in the working directory (stdin closed). Returns stdout and " +
      `stderr interleaved and the exit code; long output keeps its first and last ${MAX_BASH_OUTPUT_CHARS / 2} ` +
      `characters. Killed after timeout_ms (default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}). ` +
      "With run_in_background it returns at once with a task id instead (bash_output reads it, kill_task stops it)." +
      (options.sandbox === undefined ? "" : ` ${describeSandboxForCommands(options.sandbox)}`),
    schema: bashSchema,
    confinable: {
      escapeReason: (args) =>
        typeof args.unsandboxed_reason === "string" ? args.unsandboxed_reason : undefined,
    },
    async run(args, context) {
      const isDirectory = await stat(context.cwd).then(
        (info) => info.isDirectory(),
        () => false,
      );
      if (!isDirectory) throw new ToolError(`Working directory ${context.cwd} does not exist`);
      const timeoutMs = args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS;
      const env = options.env ?? toolEnvironment(process.env);
      if (args.run_in_background === true) {
        if (options.tasks === undefined) throw new ToolError("bash: background tasks are not available here");
        return await startInBackground(args.command, env, context, options.tasks);
      }
      return await runBash(args.command, timeoutMs, env, context);
    },
  });
}

async function runBash(
  command: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
  context: ToolContext,
): Promise<ToolOutput> {
  const limits = { cwd: context.cwd, timeoutMs, maxOutputChars: MAX_BASH_OUTPUT_CHARS };
  // Loaded with the first command (it brings node:child_process): a run that starts none never loads it.
  const { bashLaunch, runProcess } = await import("./run-process.js");
  const cancel = optional("signal", context.signal);
  if (context.sandbox === undefined) {
    return formatCommandResult(
      await runProcess(bashLaunch(command), { ...limits, env, ...cancel }),
      timeoutMs,
    );
  }
  await context.sandbox.ready?.(env);
  const prepared = context.sandbox.prepare(command, context.cwd, env);
  const result = await runProcess(prepared, { ...limits, env: prepared.env, ...cancel });
  const after = prepared.finish();
  if (result.sandboxFailure !== undefined) {
    throw new ToolError(
      `The sandbox could not start, so the command did not run: ${result.sandboxFailure}\n` +
        "Tell the user: the sandbox needs fixing (panto sandbox shows what fails), or they can run panto with --sandbox full.",
    );
  }
  const failed = result.exitCode !== 0 || result.timedOut || result.aborted;
  const hint = failed ? sandboxFailureHint(result, context.sandbox.policy) : undefined;
  const notes = [
    ...after.refused.map((note) => `Refused by the sandbox, rule protected-path: ${note}`),
    ...after.notes.map((note) => `Note: ${note}`),
    ...(hint === undefined ? [] : [hint]),
  ];
  return formatCommandResult(result, timeoutMs, notes, after.refused.length > 0);
}

/**
 * Starts `command` as a background task, confined like a foreground one (the same sandbox and
 * environment), and says how to follow it.
 */
async function startInBackground(
  command: string,
  env: NodeJS.ProcessEnv,
  context: ToolContext,
  tasks: BackgroundTasks,
): Promise<ToolOutput> {
  const { bashLaunch } = await import("./run-process.js");
  const base = { command, cwd: context.cwd, ...optional("callId", context.callId) };
  let info: BackgroundTaskInfo;
  if (context.sandbox === undefined) {
    info = await tasks.start({ ...base, launch: bashLaunch(command), env });
  } else {
    await context.sandbox.ready?.(env);
    // With the network off, from now on commands share one loopback, so later ones reach this one.
    await context.sandbox.shareLoopback?.();
    const prepared = context.sandbox.prepare(command, context.cwd, env);
    const { file, args, statusFd } = prepared;
    info = await tasks.start({
      ...base,
      launch: { file, args, statusFd },
      env: prepared.env,
      finish: prepared.finish,
    });
  }
  const text =
    `Started background task ${info.id}: \`${command}\`.\n` +
    `Read its output with bash_output {"id": "${info.id}"}, stop it with kill_task {"id": "${info.id}"}; ` +
    `you will be told when it ends. Its whole output is kept in ${info.logPath}.`;
  return { content: [{ type: "text", text }], isError: false };
}

/**
 * The output followed by one line saying how the command ended; anything but exit 0 is an error.
 * `notes` follow, one a line (what the sandbox refused or put back); `refused` makes the call an
 * error whatever its exit code: the command did not do what it meant to.
 */
export function formatCommandResult(
  result: CommandResult,
  timeoutMs: number,
  notes: readonly string[] = [],
  refused = false,
): ToolOutput {
  const output = result.output === "" ? "(no output)" : result.output.replace(/\n$/, "");
  const ending = describeEnding(result, timeoutMs);
  const text = [`${output}\n\n${ending}`, ...notes].join("\n");
  const isError = result.exitCode !== 0 || result.timedOut || result.aborted || refused;
  return { content: [{ type: "text", text }], isError };
}

function describeEnding(result: CommandResult, timeoutMs: number): string {
  if (result.timedOut) return `Command timed out after ${timeoutMs} ms and was killed`;
  if (result.aborted) return "Command aborted and killed";
  if (result.exitCode === null) return `Command killed by ${result.signal ?? "a signal"}`;
  return `Exit code: ${result.exitCode}`;
}
