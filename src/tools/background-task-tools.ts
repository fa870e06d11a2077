import { type BackgroundTaskInfo, type BackgroundTasks, describeEnding } from "./background-tasks.js";
import { MAX_BASH_OUTPUT_CHARS } from "./bash-tool.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import type { Tool, ToolOutput } from "./tool.js";
import { ToolError } from "./tool-error.js";

export const bashOutputSchema = (z: Zod) =>
  z.strictObject({
    id: z
      .string()
      .min(1)
      .describe('The background task\'s id, as `bash` with run_in_background returned it (e.g. "bg1").'),
    filter: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A regular expression (JavaScript syntax): only new lines matching it are returned; the others are skipped for good.",
      ),
  });

export const killTaskSchema = (z: Zod) =>
  z.strictObject({
    id: z.string().min(1).describe('The background task\'s id (e.g. "bg1").'),
  });

/**
 * `bash_output`: what a background task printed since the last read, bounded like `bash` (first
 * and last halves kept), with how it is doing. It only reads the task's log, so it runs freely.
 */
export function createBashOutputTool(tasks: BackgroundTasks): Tool {
  return defineBuiltInTool({
    name: "bash_output",
    kind: "read",
    description:
      "Read what a background task (started by bash with run_in_background) printed since the last read, " +
      `stdout and stderr interleaved; long output keeps its first and last ${MAX_BASH_OUTPUT_CHARS / 2} characters ` +
      "(the task's whole log stays in the session folder). Says whether the task is running or how it ended. " +
      "`filter` keeps only the lines matching a regular expression.",
    schema: bashOutputSchema,
    async run(args): Promise<ToolOutput> {
      const task = tasks.get(args.id);
      const filter = args.filter === undefined ? undefined : compileFilter(args.filter);
      const { readTaskOutput } = await import("./read-task-output.js");
      const read = readTaskOutput(task.info, MAX_BASH_OUTPUT_CHARS, filter);
      if (task.info.ending !== undefined) tasks.reported(task.info.id);
      const body = read.text === "" ? "(no new output)" : read.text.replace(/\n$/, "");
      const dropped = read.dropped > 0 ? `, ${read.dropped} lines not matching the filter skipped` : "";
      const span = `bytes ${read.from}-${read.to} of ${task.info.outputBytes}${dropped}`;
      return {
        content: [{ type: "text", text: `${body}\n\n${taskState(task.info)} (${span})` }],
        isError: false,
      };
    },
  });
}

/** `kill_task`: stops a background task and its whole process tree, and says how it ended. */
export function createKillTaskTool(tasks: BackgroundTasks): Tool {
  return defineBuiltInTool({
    name: "kill_task",
    kind: "read",
    description:
      "Stop a background task started by bash with run_in_background, and every process it started " +
      "(SIGTERM, then SIGKILL after 2 s). Its output stays readable with bash_output.",
    schema: killTaskSchema,
    async run(args): Promise<ToolOutput> {
      const before = tasks.get(args.id).info;
      if (before.ending !== undefined) {
        tasks.reported(before.id);
        return { content: [{ type: "text", text: `${taskState(before)}: nothing to stop` }], isError: false };
      }
      const info = await tasks.kill(args.id);
      return { content: [{ type: "text", text: taskState(info) }], isError: false };
    },
  });
}

/** "Task bg1: running for 12 s, 3400 bytes of output" and the like (the model has the command in its call). */
export function taskState(info: BackgroundTaskInfo): string {
  const seconds = Math.round(((info.endedAt ?? Date.now()) - info.startedAt) / 1000);
  const state =
    info.ending === undefined
      ? `running for ${seconds} s`
      : `ended after ${seconds} s: ${describeEnding(info.ending)}`;
  const after =
    info.after === undefined
      ? []
      : [...info.after.refused.map((note) => `refused by the sandbox: ${note}`), ...info.after.notes];
  return [`Task ${info.id}: ${state}, ${info.outputBytes} bytes of output`, ...after].join("\n");
}

function compileFilter(source: string): RegExp {
  try {
    return new RegExp(source);
  } catch (error) {
    throw new ToolError(
      `bash_output: "filter" is not a valid regular expression: ${(error as Error).message}`,
    );
  }
}
