import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../../agent/index.js";
import type { FlaggedTodoItem, StopReason, ToolCallBlock } from "../../core/index.js";
import type { CommandOutcome } from "../../runtime/command-outcome.js";
import { contextWarningText } from "../../runtime/context-warnings.js";
import { formatClearingLine, formatToolCall } from "../../runtime/format-text.js";
import type { RunEvent } from "../../runtime/run-events.js";
import type { FileChange } from "../../tools/index.js";
import { BackgroundCalls } from "./background-calls.js";
import { CompactionReporter } from "./compaction-reporter.js";
import { type OutcomeDeps, reportOutcome } from "./outcome-reporter.js";
import { planUpdate } from "./plan-update.js";
import { toolCallView, toolResultView } from "./tool-call-view.js";
import { agentText, noticeText, type SessionOutput } from "./update-sender.js";

export interface RendererOptions {
  out: SessionOutput;
  cwd: string;
  /** The client advertised `session.compaction`. */
  compactionEntities: boolean;
  newId: () => string;
  /** The session's `usage_update` now (undefined sends none). */
  usage: () => Promise<SessionUpdate | undefined>;
  /** A warning or notice for the user: stderr (and a `notice` where the client takes them). */
  warn: (message: string) => void;
  /** Notices (informational): stderr, as warnings are, without being called one. */
  note?: (message: string) => void;
  activeSummary: OutcomeDeps["activeSummary"];
  configChanged: () => void;
  /** The task list in force now, flagged by the session's record as it stands (for the `plan` update). */
  todos: () => Promise<readonly FlaggedTodoItem[]>;
}

/** A tool call the editor was told about and not yet given its result. */
interface OpenCall {
  call: ToolCallBlock;
  change?: FileChange;
}

/**
 * One session's run events as ACP session updates: the model's text and thinking as message and
 * thought chunks (a `messageId` per answer), tool calls announced before any update about them,
 * the real diff of a write or edit in its result, compactions (see CompactionReporter), command
 * outcomes (see reportOutcome), and a `usage_update` after every model request. The user's own
 * message is never echoed. Warnings go to `warn`, never into the conversation.
 */
export class AcpRenderer {
  readonly #options: RendererOptions;
  readonly compactions: CompactionReporter;
  readonly #open = new Map<string, OpenCall>();
  readonly #background = new BackgroundCalls();
  #messageId: string | undefined;
  #thoughtId: string | undefined;
  /** Why the latest answer ended (its `length` is the prompt's `max_tokens`). */
  lastStop: StopReason | undefined;
  /** The `plan` update the editor was sent last (as JSON), or that of no list before any. */
  #planSent = JSON.stringify(planUpdate([]));

  constructor(options: RendererOptions) {
    this.#options = options;
    this.compactions = new CompactionReporter({
      entities: options.compactionEntities,
      out: options.out,
      newId: options.newId,
      usage: options.usage,
    });
  }

  /** A slash command's outcome, once it ended (`name` as registered). */
  commandOutcome(name: string, outcome: CommandOutcome): void {
    reportOutcome(name, outcome, this.#outcomeDeps());
  }

  /** `!COMMAND` ran: the command and its output as an agent message (`_meta["panto/shell"]` as data). */
  shellRun(command: string, output: string, isError: boolean): void {
    const text = `$ ${command}\n${output}\n\n(the command and its output are now in the conversation)`;
    this.#options.out.send(agentText(this.#options.newId(), text, { "panto/shell": { command, isError } }));
  }

  /** The tool call `id` as announced (for a permission question about it), if it is open. */
  openCall(id: string): OpenCall | undefined {
    return this.#open.get(id);
  }

  render(event: RunEvent): void {
    switch (event.type) {
      case "run-warning":
      case "warning":
        this.#options.warn(event.message);
        return;
      case "run-notice":
        (this.#options.note ?? this.#options.warn)(event.message);
        return;
      case "tool-denied":
        this.#finish(event.call.id, "failed", "Denied: nobody could be asked.");
        return;
      case "command":
        // Reported from the result of `submit` (commandOutcome), not from this notification.
        return;
      case "prompt-sent":
        return;
      case "handoff":
        // The /handoff command's own outcome says where the work went (reportOutcome).
        return;
      case "context-warning":
        this.#contextWarning(event);
        return;
      case "todo-updated":
        this.#plan(event.items);
        return;
      case "mode-changed":
        // Whatever changed it (/plan in a prompt, the client's own switch), the editor's menu follows.
        this.#options.out.send({ sessionUpdate: "current_mode_update", currentModeId: event.mode });
        this.#options.configChanged();
        return;
      case "background-task-started":
        this.#background.started(event);
        return;
      case "background-task-exited": {
        const update = this.#background.exited(event);
        if (update !== undefined) this.#options.out.send(update);
        return;
      }
      case "task-started":
      case "task-event":
      case "task-finished":
        // A subagent shows in the editor as its `task` tool call, whose result is the child's
        // report; ACP has no place for a child's own stream, which stays in its session file.
        return;
      default:
        this.#agentEvent(event);
    }
  }

  /**
   * The task list in force as a `plan` update, sent when it differs from the one sent last: on a
   * session's opening (a loaded or resumed one with a list) and after each prompt, where a /clear,
   * /rewind or fork changed the list, or a flag cleared once its evidence passed.
   */
  syncPlan(): void {
    this.#options.out.later(async () => this.#changedPlan(await this.#options.todos()));
  }

  #plan(items: readonly FlaggedTodoItem[]): void {
    const update = this.#changedPlan(items);
    if (update !== undefined) this.#options.out.send(update);
  }

  #changedPlan(items: readonly FlaggedTodoItem[]): SessionUpdate | undefined {
    const update = planUpdate(items);
    const text = JSON.stringify(update);
    if (text === this.#planSent) return undefined;
    this.#planSent = text;
    return update;
  }

  /** Calls announced and never answered (an interrupted answer): closed as failed, so none stays open. */
  closeOpenCalls(reason: string): void {
    for (const id of [...this.#open.keys()]) this.#finish(id, "failed", reason);
  }

  #agentEvent(event: AgentEvent): void {
    const { out, newId } = this.#options;
    switch (event.type) {
      case "text-delta":
        this.#messageId ??= newId();
        out.send({
          sessionUpdate: "agent_message_chunk",
          messageId: this.#messageId,
          content: { type: "text", text: event.text },
        });
        return;
      case "thinking-delta":
        this.#thoughtId ??= newId();
        out.send({
          sessionUpdate: "agent_thought_chunk",
          messageId: this.#thoughtId,
          content: { type: "text", text: event.text },
        });
        return;
      case "request-started":
        this.#newAnswer();
        return;
      case "assistant-message":
        this.#newAnswer();
        this.lastStop = event.message.stopReason;
        out.later(this.#options.usage);
        return;
      case "tool-call":
        this.#announce(event.call);
        return;
      case "tool-started":
        out.send({ sessionUpdate: "tool_call_update", toolCallId: event.call.id, status: "in_progress" });
        return;
      case "file-changed": {
        const open = this.#open.get(event.toolCallId);
        if (open !== undefined) open.change = event.change;
        return;
      }
      case "tool-result":
        this.#result(event);
        return;
      case "context-cleared":
      case "clearing-undone":
        this.#clearing(event);
        return;
      case "retry-wait":
        this.#options.warn(
          `retrying in ${(event.delayMs / 1000).toFixed(1)}s (attempt ${event.attempt}): ${event.reason}`,
        );
        return;
      case "hook":
        this.#options.warn(
          `hook ${event.run.event} (${event.run.command}): exit ${event.run.exitCode ?? "none"}`,
        );
        return;
      default:
        this.#compactionEvent(event);
    }
  }

  #compactionEvent(event: AgentEvent): void {
    const { compactions } = this;
    switch (event.type) {
      case "compaction-started":
        compactions.started(event);
        return;
      case "compaction-attempt-failed":
        compactions.attemptFailed(event);
        this.#options.warn(`compaction with ${event.model} failed (${event.code}): ${event.message}`);
        return;
      case "compaction":
        compactions.completed(event);
        return;
      case "compaction-failed":
        compactions.failed(event);
        return;
      case "compaction-skipped":
        compactions.skipped(event);
        return;
      case "compaction-prepared":
        this.#compactionPrepared(event);
        return;
      default:
        // Progress, the overflow retry, and the compaction controls' events: their commands' outcomes say it.
        return;
    }
  }

  /**
   * A clearing (or its undo): one line for the user (an undo's is its command's outcome), and a
   * `usage_update` with the new size whose `_meta["panto/clearing"]` names what changed. With no
   * window known there is no size to update: a clearing then comes as the notice `session/load`
   * shows at its place, with the same `_meta`.
   */
  #clearing(event: Extract<AgentEvent, { type: "context-cleared" | "clearing-undone" }>): void {
    const { out, usage } = this.#options;
    const cleared = event.type === "context-cleared";
    // An undo is told by /unclear's own outcome.
    if (cleared) (this.#options.note ?? this.#options.warn)(formatClearingLine(event));
    const meta = {
      "panto/clearing": {
        event: cleared ? "cleared" : "undone",
        clearingId: event.clearingId,
        toolResults: event.toolCallIds.length,
        ids: event.toolCallIds,
        tokensBefore: event.tokensBefore,
        tokensAfter: event.tokensAfter,
        ...(cleared ? { reason: event.reason.replace("-", "_") } : {}),
      },
    };
    out.later(async () => {
      const update = await usage();
      if (update?.sessionUpdate === "usage_update") return { ...update, _meta: { ...update._meta, ...meta } };
      return cleared ? noticeText(event.clearingId, formatClearingLine(event), meta) : update;
    });
  }

  /**
   * A context warning as a `usage_update` with the warning's own figures, the level under
   * `_meta["panto/contextWarning"]` (the protocol has no field for it), and a line on stderr.
   */
  #contextWarning(event: Extract<RunEvent, { type: "context-warning" }>): void {
    const { level, used, size } = event;
    this.#options.out.later(async () => {
      const update = await this.#options.usage();
      const base = update?.sessionUpdate === "usage_update" ? update : undefined;
      return {
        ...base,
        sessionUpdate: "usage_update",
        used,
        size,
        _meta: { ...base?._meta, "panto/contextWarning": { level, used, size } },
      };
    });
    this.#options.warn(contextWarningText(event));
  }

  /**
   * A compaction summary prepared ahead: a `usage_update` carrying it under
   * `_meta["panto/compactionPrepared"]` (nothing in the conversation: no compaction happened yet).
   */
  #compactionPrepared(event: Extract<AgentEvent, { type: "compaction-prepared" }>): void {
    const { model, turnsSummarised, tokensSummarised, summaryTokens, durationMs, coldCache } = event;
    this.#options.out.later(async () => {
      const update = await this.#options.usage();
      if (update?.sessionUpdate !== "usage_update") return undefined;
      const prepared = {
        model,
        turnsSummarised,
        tokensSummarised,
        summaryTokens,
        durationMs,
        ...(coldCache === true ? { coldCache } : {}),
      };
      return { ...update, _meta: { ...update._meta, "panto/compactionPrepared": prepared } };
    });
  }

  #newAnswer(): void {
    this.#messageId = undefined;
    this.#thoughtId = undefined;
  }

  #announce(call: ToolCallBlock): void {
    this.#open.set(call.id, { call });
    const view = toolCallView(call, this.#options.cwd);
    this.#options.out.send({
      sessionUpdate: "tool_call",
      toolCallId: call.id,
      title: view.title,
      kind: view.kind,
      status: "pending",
      locations: view.locations,
      rawInput: call.arguments,
    });
  }

  #result(event: Extract<AgentEvent, { type: "tool-result" }>): void {
    const { result } = event;
    const open = this.#open.get(result.toolCallId);
    // A result for a call never announced (it cannot happen in a turn) is announced first.
    if (open === undefined)
      this.#announce({ type: "tool-call", id: result.toolCallId, name: result.toolName, arguments: {} });
    this.#open.delete(result.toolCallId);
    const view = withBackground(
      toolResultView(result, open?.change),
      this.#background.resultStatus(result.toolCallId),
    );
    const locations =
      open?.change === undefined
        ? {}
        : { locations: toolCallView(open.call, this.#options.cwd, open.change).locations };
    this.#options.out.send({
      sessionUpdate: "tool_call_update",
      toolCallId: result.toolCallId,
      ...view,
      ...locations,
    });
  }

  #finish(id: string, status: "failed", text: string): void {
    if (!this.#open.has(id)) return;
    this.#open.delete(id);
    this.#options.out.send({
      sessionUpdate: "tool_call_update",
      toolCallId: id,
      status,
      content: [{ type: "content", content: { type: "text", text } }],
    });
  }

  #outcomeDeps(): OutcomeDeps {
    const { out, newId, usage, activeSummary, configChanged } = this.#options;
    return { out, newId, compactions: this.compactions, usage, activeSummary, configChanged };
  }
}

/** A one-line description of a call, for stderr logs. */
export function describeCall(call: ToolCallBlock): string {
  return formatToolCall(call);
}

/** A result's view, kept `in_progress` while the background task it started runs (see BackgroundCalls). */
function withBackground(
  view: ReturnType<typeof toolResultView>,
  background: ReturnType<BackgroundCalls["resultStatus"]>,
): ReturnType<typeof toolResultView> {
  if (background === undefined) return view;
  const line =
    background.line === undefined
      ? []
      : [{ type: "content" as const, content: { type: "text" as const, text: background.line } }];
  return { status: background.status, content: [...view.content, ...line] };
}
