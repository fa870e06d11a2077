import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { MAX_BASH_TIMEOUT_MS } from "./bash-tool.js";
import { describeError } from "./describe-error.js";
import type { Tool, ToolContext, ToolOutput } from "./tool.js";
import { runWithDeadline, type ToolDeadline } from "./tool-deadline.js";
import { errorOutput } from "./tool-output.js";

/** How long a read, write, edit, ls, glob or grep call may run: far more than any of them needs. */
export const TOOL_DEADLINE_MS = 120_000;
/** Exec tools (bash) enforce their own timeout, at most MAX_BASH_TIMEOUT_MS; this only backs it up. */
export const EXEC_TOOL_DEADLINE_MS = MAX_BASH_TIMEOUT_MS + 60_000;
/** Time an interrupted tool gets to stop by itself (bash kills its process group) before it is abandoned. */
export const TOOL_ABORT_GRACE_MS = 5_000;

/** Overrides of the time limits, for embedders and tests. */
export type RunToolOptions = Partial<ToolDeadline>;

function limitsFor(tool: Tool, options: RunToolOptions): ToolDeadline {
  return {
    deadlineMs:
      options.deadlineMs ??
      tool.deadlineMs ??
      (tool.kind === "exec" ? EXEC_TOOL_DEADLINE_MS : TOOL_DEADLINE_MS),
    abortGraceMs: options.abortGraceMs ?? TOOL_ABORT_GRACE_MS,
  };
}

/**
 * Runs one tool call and always answers with a result block: an unknown tool, invalid arguments or
 * an unexpected exception become an error result the model can read and react to. Never throws,
 * and never hangs: a call still running at its deadline (or soon after an interrupt) is abandoned
 * with an error result.
 */
export async function runTool(
  tools: readonly Tool[],
  call: ToolCallBlock,
  context: ToolContext,
  options: RunToolOptions = {},
): Promise<ToolResultBlock> {
  const output = await runToolOutput(tools, call, context, options);
  return { type: "tool-result", toolCallId: call.id, toolName: call.name, ...output };
}

async function runToolOutput(
  tools: readonly Tool[],
  call: ToolCallBlock,
  context: ToolContext,
  options: RunToolOptions,
): Promise<ToolOutput> {
  const tool = tools.find((candidate) => candidate.definition.name === call.name);
  if (tool === undefined) {
    const available = tools.map((candidate) => candidate.definition.name).join(", ");
    return errorOutput(`Unknown tool "${call.name}". Available tools: ${available || "none"}`);
  }
  const args: unknown = call.arguments;
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    return errorOutput(`Invalid arguments for ${call.name}: expected a JSON object`);
  }
  return await runWithDeadline(call.name, limitsFor(tool, options), context.signal, async (signal) => {
    try {
      return await tool.execute(args as Record<string, unknown>, { ...context, signal });
    } catch (error) {
      return errorOutput(`${call.name} failed: ${describeError(error)}`);
    }
  });
}
