import type { AgentContext, PermissionOption, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { ToolCallBlock } from "../../core/index.js";
import type { ApprovalAnswer } from "../../runtime/front-end.js";
import { type FileAccess, previewFileChange } from "../../tools/index.js";
import { diffContent, toolCallView } from "./tool-call-view.js";

/**
 * The choices offered for a tool call: once, always (remembered by panto for this session), or
 * no. With suggested rules, "always" is those rules for the session, and its name says so.
 */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow this tool in this session", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
];

export interface PermissionRequest {
  client: AgentContext;
  sessionId: string;
  cwd: string;
  call: ToolCallBlock;
  files: FileAccess | undefined;
  /** The turn's signal: a cancel stops waiting for the answer. */
  signal: AbortSignal | undefined;
  /** Set when the model asks to run the call outside the sandbox, with its reason. */
  escapeReason?: string;
  /** Who asks when it is not the main agent (a `task` child). */
  origin?: string;
  /** The allow rules an "always" adds (see suggestRules); none: "always" allows the tool. */
  suggestedRules?: readonly string[];
}

/**
 * Asks the client about one tool call with `session/request_permission`: the call as announced,
 * with the real diff a write or edit would make. "cancelled" (the user cancelled the turn, or the
 * turn was cancelled while asking) is returned apart so the caller can stop the turn.
 */
export async function askPermission(request: PermissionRequest): Promise<ApprovalAnswer | "cancelled"> {
  const { client, sessionId, cwd, call, files, signal, escapeReason, origin } = request;
  const rules = escapeReason === undefined ? (request.suggestedRules ?? []) : [];
  const change = await previewFileChange(call, cwd, files).catch(() => undefined);
  const view = toolCallView(call, cwd, change);
  const title = [
    origin === undefined ? "" : `${origin}: `,
    view.title,
    escapeReason === undefined ? "" : ` (outside the sandbox: ${escapeReason})`,
  ].join("");
  // An escape is asked every time: no "always" is offered for it.
  const options =
    escapeReason === undefined
      ? PERMISSION_OPTIONS.map((option) =>
          option.kind === "allow_always" && rules.length > 0
            ? { ...option, name: `Always allow ${rules.join(", ")} in this session` }
            : option,
        )
      : PERMISSION_OPTIONS.filter((option) => option.kind !== "allow_always");
  const toolCall: ToolCallUpdate = {
    toolCallId: call.id,
    title,
    kind: view.kind,
    status: "pending",
    locations: view.locations,
    rawInput: call.arguments,
    ...(change === undefined ? {} : { content: [diffContent(change)] }),
  };
  if (signal?.aborted === true) return "cancelled";
  try {
    const response = await client.request(
      "session/request_permission",
      { sessionId, toolCall, options },
      signal === undefined ? undefined : { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
    const { outcome } = response;
    if (outcome.outcome === "cancelled") return "cancelled";
    if (outcome.optionId === "allow_once") return "once";
    if (outcome.optionId === "allow_always")
      return rules.length > 0 ? { allowRules: rules, saveTo: "session" } : "always";
    return "deny";
  } catch (error) {
    // Checked again: the turn may have been cancelled while the question was open.
    if (isAborted(signal)) return "cancelled";
    throw error;
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
