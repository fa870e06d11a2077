import type { JsonEvent } from "../frontends/json/json-events.js";
import { PermissionQuestions } from "../frontends/json/permission-questions.js";
import type { ApprovalAsker } from "../runtime/front-end.js";
import type { PermissionCallback, PermissionDecision, PermissionRequest } from "./panto-options.js";

const DECISIONS: readonly unknown[] = ["allow", "allow_always", "deny"];

/**
 * The run's approval asker for a program's `onPermission`: stream-json's questions (each a
 * `permission_request` event with its id, denied when the turn is stopped), answered by the
 * callback instead of a stdin line. A callback that throws or answers something else denies the
 * call, and a `warning` event says why.
 */
export function permissionAsker(
  decide: PermissionCallback,
  emit: (event: JsonEvent) => void,
  turnSignal: () => AbortSignal | undefined,
): ApprovalAsker {
  const questions: PermissionQuestions = new PermissionQuestions((event) => {
    emit(event);
    // The callback gets the event as the stream has it: a copy, in the schema's shape.
    if (event.type === "permission_request")
      void answer(JSON.parse(JSON.stringify(event)) as PermissionRequest);
  });
  const answer = async (request: PermissionRequest): Promise<void> => {
    questions.answer(request.id, await decisionOf(decide, request, emit));
  };
  return (call, _tool, request, origin) => questions.ask(call, request, origin, turnSignal());
}

async function decisionOf(
  decide: PermissionCallback,
  request: PermissionRequest,
  emit: (event: JsonEvent) => void,
): Promise<PermissionDecision> {
  let decision: unknown;
  try {
    decision = await decide(request);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    emit({
      type: "warning",
      message: `onPermission threw on ${request.tool} (${reason}); the call is denied`,
    });
    return "deny";
  }
  if (DECISIONS.includes(decision)) return decision as PermissionDecision;
  emit({
    type: "warning",
    message: `onPermission answered ${JSON.stringify(decision) ?? String(decision)} on ${request.tool}, not "allow", "allow_always" or "deny"; the call is denied`,
  });
  return "deny";
}
