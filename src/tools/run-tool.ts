import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { describeError } from "./describe-error.js";
import type { Tool, ToolContext, ToolOutput } from "./tool.js";
import { errorOutput } from "./tool-output.js";

/**
 * Runs one tool call and always answers with a result block: an unknown tool, invalid arguments or
 * an unexpected exception become an error result the model can read and react to. Never throws.
 */
export async function runTool(
  tools: readonly Tool[],
  call: ToolCallBlock,
  context: ToolContext,
): Promise<ToolResultBlock> {
  const output = await runToolOutput(tools, call, context);
  return { type: "tool-result", toolCallId: call.id, toolName: call.name, ...output };
}

async function runToolOutput(
  tools: readonly Tool[],
  call: ToolCallBlock,
  context: ToolContext,
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
  try {
    return await tool.execute(args as Record<string, unknown>, context);
  } catch (error) {
    return errorOutput(`${call.name} failed: ${describeError(error)}`);
  }
}
