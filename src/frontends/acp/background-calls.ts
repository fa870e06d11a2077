import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { backgroundTaskLine } from "../../runtime/background-task-text.js";
import type { BackgroundTaskEvent } from "../../tools/index.js";

type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;

/**
 * The `bash` calls that started a background task: ACP shows each as a tool call that stays
 * `in_progress` after its result (which only says the task started) until the task ends, then
 * `completed` (exit 0) or `failed`, with a line saying how it ended.
 */
export class BackgroundCalls {
  /** Call id -> whether its result was sent yet, and the task's end if it came first. */
  readonly #calls = new Map<string, { resultSent: boolean; exited?: BackgroundTaskEvent }>();

  /** A task started under call `callId`. */
  started(event: BackgroundTaskEvent): void {
    if (event.task.callId !== undefined) this.#calls.set(event.task.callId, { resultSent: false });
  }

  /**
   * The status a call's result is shown with: `in_progress` while its task runs, the task's end once
   * it ended (with its line to add); undefined for calls that started no task.
   */
  resultStatus(
    callId: string,
  ): { status: "in_progress" | "completed" | "failed"; line?: string } | undefined {
    const call = this.#calls.get(callId);
    if (call === undefined) return undefined;
    call.resultSent = true;
    if (call.exited === undefined) return { status: "in_progress" };
    this.#calls.delete(callId);
    return { status: endStatus(call.exited), line: backgroundTaskLine(call.exited) };
  }

  /** The update that closes the call of a task that ended, once its result was sent (else kept for it). */
  exited(event: BackgroundTaskEvent): ToolCallUpdate | undefined {
    const callId = event.task.callId;
    const call = callId === undefined ? undefined : this.#calls.get(callId);
    if (callId === undefined || call === undefined) return undefined;
    if (!call.resultSent) {
      call.exited = event;
      return undefined;
    }
    this.#calls.delete(callId);
    return {
      sessionUpdate: "tool_call_update",
      toolCallId: callId,
      status: endStatus(event),
      content: [{ type: "content", content: { type: "text", text: backgroundTaskLine(event) } }],
    };
  }
}

function endStatus(event: BackgroundTaskEvent): "completed" | "failed" {
  const ending = event.task.ending;
  return ending?.kind === "exited" && ending.code === 0 ? "completed" : "failed";
}
