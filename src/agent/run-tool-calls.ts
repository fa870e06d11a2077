import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { optional } from "../core/index.js";
import type { CheckpointEntry } from "../session/index.js";
import { runTool, type Tool } from "../tools/index.js";
import type { AgentOptions, ApprovalVerdict } from "./agent-options.js";

type ToolCallOptions = Pick<
  AgentOptions,
  "tools" | "approve" | "cwd" | "hooks" | "checkpoints" | "files" | "toolDeadlineMs"
> &
  // Optional here: only the file-changed events of write and edit are reported through it.
  Partial<Pick<AgentOptions, "onEvent">>;

/** What the caller hears while the calls run. */
export interface ToolCallListeners {
  /** A call allowed to run starts now. */
  onStart?: (call: ToolCallBlock) => void;
  /** A checkpoint was recorded around a call. */
  onCheckpoint?: (entry: CheckpointEntry) => void;
}

/**
 * Runs one assistant message's tool calls in order, asking permission for write and exec tools.
 * Every call gets exactly one result, even when denied, unknown or interrupted, so the protocol
 * pairing holds whatever happens. The caller persists the results before reporting them.
 */
export async function runToolCalls(
  calls: readonly ToolCallBlock[],
  options: ToolCallOptions,
  signal: AbortSignal | undefined,
  listeners: ToolCallListeners = {},
): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  for (const call of calls) results.push(await runOne(call, options, signal, listeners));
  return results;
}

async function runOne(
  call: ToolCallBlock,
  options: ToolCallOptions,
  signal: AbortSignal | undefined,
  listeners: ToolCallListeners,
): Promise<ToolResultBlock> {
  if (signal?.aborted) return errorResult(call, "Not run: the user interrupted the request.");
  const verdict = await options.hooks?.preToolUse(call);
  if (verdict?.blocked === true)
    return errorResult(call, `Blocked by a PreToolUse hook: ${verdict.reason ?? ""}`);
  const tool = options.tools.find((candidate) => candidate.definition.name === call.name);
  if (tool !== undefined && tool.kind !== "read") {
    const verdict = await options.approve(call, tool);
    if (verdict !== "allow") return errorResult(call, denialText(verdict));
  }
  if (tool === undefined) return await runRecorded(call, tool, options, signal, listeners);
  // The checkpoint brackets the call and its PostToolUse hooks (a formatter hook's changes count as
  // the call's), and is taken by panto itself, outside any sandbox the tool runs in.
  const token = await options.checkpoints?.before(call, tool, options.cwd);
  const result = await runRecorded(call, tool, options, signal, listeners);
  if (token !== undefined) {
    const entry = await options.checkpoints?.after(token, result);
    if (entry !== undefined) listeners.onCheckpoint?.(entry);
  }
  return result;
}

/** Runs the call and its PostToolUse hooks. */
async function runRecorded(
  call: ToolCallBlock,
  tool: Tool | undefined,
  options: ToolCallOptions,
  signal: AbortSignal | undefined,
  listeners: ToolCallListeners,
): Promise<ToolResultBlock> {
  listeners.onStart?.(call);
  // Bash enforces the timeout the model gave it; the configured deadline is for the other tools.
  const deadline = tool?.kind === "exec" ? undefined : options.toolDeadlineMs;
  const result = await runTool(
    options.tools,
    call,
    {
      cwd: options.cwd,
      ...optional("signal", signal),
      ...optional("files", options.files),
      onFileChange: (change) => options.onEvent?.({ type: "file-changed", toolCallId: call.id, change }),
    },
    optional("deadlineMs", deadline),
  );
  await options.hooks?.postToolUse(call, result);
  return result;
}

/** What the model is told about a denied call; the user's reason, when they gave one, word for word. */
function denialText(verdict: Exclude<ApprovalVerdict, "allow">): string {
  const reason = typeof verdict === "object" ? verdict.reason.trim() : "";
  return reason === ""
    ? "The user did not allow this tool call. Ask before trying again, or take another way."
    : `The user did not allow this tool call. Their reason: ${reason}\nTake it into account before trying again.`;
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
