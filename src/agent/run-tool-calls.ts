import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";
import { optional } from "../core/index.js";
import type { ToolSandbox } from "../sandbox/index.js";
import type { CheckpointEntry } from "../session/index.js";
import { runTool, sandboxRefusalOf, type Tool } from "../tools/index.js";
import type { AgentOptions, ApprovalRequest, ApprovalVerdict, RuleVerdict } from "./agent-options.js";

type ToolCallOptions = Pick<
  AgentOptions,
  | "tools"
  | "approve"
  | "cwd"
  | "hooks"
  | "checkpoints"
  | "files"
  | "sandbox"
  | "toolDeadlineMs"
  | "permissionRules"
  | "readDenied"
  | "restrictTool"
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
 * Runs one assistant message's tool calls in order, asking permission for write and exec tools
 * (for a sandboxed command, only when it asks to leave the sandbox or the policy says to ask).
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
  for (const batch of batches(calls, options.tools)) {
    if (batch.length === 1) results.push(await runOne(batch[0] as ToolCallBlock, options, signal, listeners));
    else results.push(...(await Promise.all(batch.map((call) => runOne(call, options, signal, listeners)))));
  }
  return results;
}

/**
 * The calls split into runs that may go at once: consecutive calls of a `concurrent` tool share a
 * batch (their results keep the calls' order); every other call is a batch of its own.
 */
function batches(calls: readonly ToolCallBlock[], tools: readonly Tool[]): ToolCallBlock[][] {
  const concurrent = (call: ToolCallBlock): boolean =>
    tools.find((tool) => tool.definition.name === call.name)?.concurrent === true;
  const result: ToolCallBlock[][] = [];
  for (const call of calls) {
    const last = result.at(-1);
    const first = last?.[0];
    if (last !== undefined && first !== undefined && concurrent(first) && concurrent(call)) last.push(call);
    else result.push([call]);
  }
  return result;
}

/**
 * One call's result, whatever fails on the way: a question to the user that could not be asked (a
 * front-end's request failing under load), a hook or checkpoint throwing. Without this, one
 * exception lost the results of the whole round, the assistant message stayed in the session with
 * calls nobody answered, and resuming it warned "tool call has no recorded result".
 */
async function runOne(
  call: ToolCallBlock,
  options: ToolCallOptions,
  signal: AbortSignal | undefined,
  listeners: ToolCallListeners,
): Promise<ToolResultBlock> {
  try {
    return await runChecked(call, options, signal, listeners);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return errorResult(
      call,
      `The call failed inside panto: ${why}. It may not have run; check before trying again.`,
    );
  }
}

async function runChecked(
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
  const restriction = tool === undefined ? undefined : await options.restrictTool?.(call, tool);
  if (restriction !== undefined && "refuse" in restriction) return errorResult(call, restriction.refuse);
  if (restriction === undefined) return runAllowed(call, tool, options, signal, listeners);
  const sandboxed = { ...options, sandbox: restriction.sandbox };
  const result = await runAllowed(call, tool, sandboxed, signal, listeners);
  const note = restriction.failureNote;
  return result.isError && note !== undefined
    ? { ...result, content: [...result.content, { type: "text", text: note }] }
    : result;
}

/** The call once no restriction refused it: permission rules, the sandbox's check, the question, the run. */
async function runAllowed(
  call: ToolCallBlock,
  tool: Tool | undefined,
  options: ToolCallOptions,
  signal: AbortSignal | undefined,
  listeners: ToolCallListeners,
): Promise<ToolResultBlock> {
  const ruled = tool === undefined ? undefined : options.permissionRules?.(call, tool);
  if (ruled?.verdict === "deny") return errorResult(call, ruleDenialText(ruled.rule));
  const request =
    tool === undefined ? undefined : requestUnderRules(approvalRequest(tool, call, options.sandbox), ruled);
  if (tool !== undefined && request !== undefined) {
    // Nothing the sandbox refuses is asked about (nor read for a diff to show with the question).
    const refusal = request.kind === "escape" ? undefined : sandboxRefusalOf(call, options);
    if (refusal !== undefined) return errorResult(call, refusal);
    // An allow rule answers the usual question; never a request to leave the sandbox.
    if (ruled?.verdict !== "allow" || request.kind === "escape") {
      const verdict = await options.approve(call, tool, request);
      if (verdict !== "allow") return errorResult(call, denialText(verdict, request));
    }
  }
  // An allowed escape runs without the sandbox; every other call runs in it (when there is one).
  const sandbox = request?.kind === "escape" ? undefined : options.sandbox;
  if (tool === undefined) return await runRecorded(call, tool, options, signal, listeners, sandbox);
  // The checkpoint brackets the call and its PostToolUse hooks (a formatter hook's changes count as
  // the call's), and is taken by panto itself, outside any sandbox the tool runs in.
  const token = await options.checkpoints?.before(call, tool, options.cwd);
  const result = await runRecorded(call, tool, options, signal, listeners, sandbox);
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
  sandbox: ToolSandbox | undefined,
): Promise<ToolResultBlock> {
  listeners.onStart?.(call);
  // Bash enforces the timeout the model gave it; the configured deadline is for the other tools.
  const deadline =
    tool?.kind === "exec" || tool?.deadlineMs !== undefined ? undefined : options.toolDeadlineMs;
  const result = await runTool(
    options.tools,
    call,
    {
      cwd: options.cwd,
      callId: call.id,
      ...optional("signal", signal),
      ...optional("sandbox", sandbox),
      ...optional("files", options.files),
      ...optional("readDenied", options.readDenied),
      onFileChange: (change) => options.onEvent?.({ type: "file-changed", toolCallId: call.id, change }),
    },
    optional("deadlineMs", deadline),
  );
  await options.hooks?.postToolUse(call, result);
  return result;
}

/**
 * What a call needs from the user, if anything: read tools nothing; a tool that confines itself,
 * inside a sandbox, nothing unless it asks to escape (always asked) or the policy asks for
 * commands; everything else the usual question.
 */
export function approvalRequest(
  tool: Tool,
  call: ToolCallBlock,
  sandbox: ToolSandbox | undefined,
): ApprovalRequest | undefined {
  if (tool.kind === "read") return undefined;
  if (sandbox === undefined || tool.confinable === undefined) return { kind: "tool" };
  const args = call.arguments !== null && typeof call.arguments === "object" ? call.arguments : {};
  const reason = tool.confinable.escapeReason(args as Record<string, unknown>);
  if (reason !== undefined) return { kind: "escape", reason };
  return sandbox.policy.askCommands ? { kind: "tool" } : undefined;
}

/** An ask rule turns any call that is not an escape into a question that names the rule. */
function requestUnderRules(
  request: ApprovalRequest | undefined,
  ruled: RuleVerdict | undefined,
): ApprovalRequest | undefined {
  if (ruled?.verdict !== "ask" || request?.kind === "escape") return request;
  return { kind: "tool", rule: ruled.rule };
}

function ruleDenialText(rule: string): string {
  return `Denied by the permission rule ${rule}. The user's configuration forbids this call; do not try to reach the same result another way. Tell the user if the task needs it.`;
}

/** What the model is told about a denied call; the user's reason, when they gave one, word for word. */
function denialText(verdict: Exclude<ApprovalVerdict, "allow">, request: ApprovalRequest): string {
  const reason = typeof verdict === "object" ? verdict.reason.trim() : "";
  const what = request.kind === "escape" ? "running this command outside the sandbox" : "this tool call";
  return reason === ""
    ? `The user did not allow ${what}. Ask before trying again, or take another way.`
    : `The user did not allow ${what}. Their reason: ${reason}\nTake it into account before trying again.`;
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
