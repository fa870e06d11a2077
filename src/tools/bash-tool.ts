import { stat } from "node:fs/promises";
import { optional } from "../core/index.js";
import { toolEnvironment } from "../secrets/index.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { type CommandResult, runCommand } from "./run-command.js";
import type { Tool, ToolOutput } from "./tool.js";
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
  });

/**
 * Runs a shell command; stdin is closed, so interactive programs get EOF instead of hanging.
 * Commands get `options.env`, by default this process's environment without the variables whose
 * names look secret (API keys, tokens, passwords: see toolEnvironment), read when the tool runs.
 */
export function createBashTool(options: { env?: NodeJS.ProcessEnv } = {}): Tool {
  return defineBuiltInTool({
    name: "bash",
    kind: "exec",
    description:
      "Run a shell command with /bin/bash -c in the working directory (stdin closed). Returns stdout and " +
      `stderr interleaved and the exit code; long output keeps its first and last ${MAX_BASH_OUTPUT_CHARS / 2} ` +
      `characters. Killed after timeout_ms (default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}).`,
    schema: bashSchema,
    async run(args, context) {
      const isDirectory = await stat(context.cwd).then(
        (info) => info.isDirectory(),
        () => false,
      );
      if (!isDirectory) throw new ToolError(`Working directory ${context.cwd} does not exist`);
      const timeoutMs = args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS;
      const result = await runCommand(args.command, {
        cwd: context.cwd,
        timeoutMs,
        env: options.env ?? toolEnvironment(process.env),
        maxOutputChars: MAX_BASH_OUTPUT_CHARS,
        ...optional("signal", context.signal),
      });
      return formatCommandResult(result, timeoutMs);
    },
  });
}

/** The output followed by one line saying how the command ended; anything but exit 0 is an error. */
export function formatCommandResult(result: CommandResult, timeoutMs: number): ToolOutput {
  const output = result.output === "" ? "(no output)" : result.output.replace(/\n$/, "");
  const ending = describeEnding(result, timeoutMs);
  const isError = result.exitCode !== 0 || result.timedOut || result.aborted;
  return { content: [{ type: "text", text: `${output}\n\n${ending}` }], isError };
}

function describeEnding(result: CommandResult, timeoutMs: number): string {
  if (result.timedOut) return `Command timed out after ${timeoutMs} ms and was killed`;
  if (result.aborted) return "Command aborted and killed";
  if (result.exitCode === null) return `Command killed by ${result.signal ?? "a signal"}`;
  return `Exit code: ${result.exitCode}`;
}
