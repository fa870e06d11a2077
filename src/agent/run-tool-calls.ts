import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { runTool } from "../tools/index.js";
import type { AgentOptions } from "./agent.js";

/**
 * Runs one assistant message's tool calls in order, asking permission for write and exec tools.
 * Every call gets exactly one result, even when denied, unknown or interrupted, so the protocol
 * pairing holds whatever happens. The caller persists the results before reporting them.
 */
export async function runToolCalls(
  calls: readonly ToolCallBlock[],
  options: Pick<AgentOptions, "tools" | "approve" | "cwd" | "hooks">,
  signal: AbortSignal | undefined,
): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for (const call of calls) results.push(await runOne(call, options, signal));
  return results;
}

async function runOne(
  call: ToolCallBlock,
  options: Pick<AgentOptions, "tools" | "approve" | "cwd" | "hooks">,
  signal: AbortSignal | undefined,
): Promise<ToolResultBlock> {
  if (signal?.aborted) return errorResult(call, "Not run: the user interrupted the request.");
  const verdict = await options.hooks?.preToolUse(call);
  if (verdict?.blocked === true)
    return errorResult(call, `Blocked by a PreToolUse hook: ${verdict.reason ?? ""}`);
  const tool = options.tools.find((candidate) => candidate.definition.name === call.name);
  if (tool !== undefined && tool.kind !== "read" && (await options.approve(call, tool)) === "deny") {
    return errorResult(
      call,
      "The user did not allow this tool call. Ask before trying again, or take another way.",
    );
  }
  const result = await runTool(options.tools, call, {
    cwd: options.cwd,
    ...(signal === undefined ? {} : { signal }),
  });
  await options.hooks?.postToolUse(call, result);
  return result;
}

function errorResult(call: ToolCallBlock, text: string): ToolResultBlock {
  return {
    type: "tool-result",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    isError: true,
  };
}
