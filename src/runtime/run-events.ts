import type { AgentEvent } from "../agent/index.js";
import type { FlaggedTodoItem, ToolCallBlock } from "../core/index.js";
import type { TaskEvent } from "../subagents/index.js";
import type { BackgroundTaskEvent } from "../tools/index.js";
import type { ApprovalMode } from "./approval-policy.js";
import type { CommandOutcome } from "./command-outcome.js";
import type { WindowSource } from "./window-source.js";

/**
 * Everything a run reports, in one typed stream: the agent's events, and what panto's own
 * machinery adds around them. Each front-end renders it its own way (the terminal renderer, print
 * mode's stderr lines, JSON mode's events, an editor protocol's updates).
 */
export type RunEvent =
  | AgentEvent
  /**
   * A warning from panto's machinery rather than the agent's work: configuration, the session
   * file, model clients, MCP servers. (The agent's own warnings are `warning` events.)
   */
  | { type: "run-warning"; message: string }
  /**
   * Something worth knowing that is not a problem, said once at start (the model a resumed session
   * restored, the default model chosen by the key found): shown as a note, never as a warning.
   */
  | { type: "run-notice"; message: string }
  /**
   * `/handoff`: the first prompt of a new session is final (drafted by `model`, or written by the
   * user); `session` is the new session when it was started, absent when the draft was only shown.
   */
  | {
      type: "handoff";
      goal: string;
      draft: string;
      model?: string;
      parent: { id: string; path: string };
      session?: { id: string; path: string };
    }
  /**
   * A tool call denied without a question: there was nobody to ask and it was not allowed
   * (--allow-tools; `escape`: a request to leave the sandbox, --allow-unsandboxed). `origin`
   * names the subagent that made the call ("task NAME: DESCRIPTION"), absent for the main agent.
   */
  /** `rule`: the permission rule that asks (nobody could be asked), as `/permissions` names it. */
  | { type: "tool-denied"; call: ToolCallBlock; escape?: true; origin?: string; rule?: string }
  /**
   * The next request fills at least `level` (a fraction of config `context_warnings`) of a known
   * window: `used` of `size` tokens. Given once per level until the context drops below it again.
   */
  | { type: "context-warning"; level: number; used: number; size: number; sizeFrom: WindowSource }
  /** The user's prompt goes to the model now, with the files its `@PATH`s attached (none: empty). */
  | { type: "prompt-sent"; files: readonly string[] }
  /**
   * A slash command finished (`name` as registered, aliases resolved), for whoever watches the
   * run; front-ends show the outcome from `submit`'s result, not from this.
   */
  | { type: "command"; name: string; args: string; outcome: CommandOutcome }
  /**
   * A `todo` call replaced the task list: its items with their flags, and how many are completed
   * of how many (cancelled items count in neither). Reported when the call is accepted, before its result.
   */
  | { type: "todo-updated"; items: readonly FlaggedTodoItem[]; completed: number; total: number }
  /**
   * The approval mode changed (`/plan`, Shift+Tab, an editor's mode menu, accepting a plan):
   * `mode` is in force from the next call, `previous` was before it.
   */
  | { type: "mode-changed"; mode: ApprovalMode; previous: ApprovalMode }
  /** A `task` tool call's child agent: its start, each of its own events, its end. */
  | TaskEvent
  /** A background command (`bash` with run_in_background) started, or ended (its `task.ending` says how). */
  | BackgroundTaskEvent;

export type RunEventListener = (event: RunEvent) => void;

/**
 * The stream a run reports to. A front-end makes it and subscribes before starting the run, so
 * even setup's warnings reach it; each run has its own, so one process can hold several runs.
 */
export class RunEvents {
  readonly #listeners = new Set<RunEventListener>();

  /** Calls `listener` with every later event, in order; returns the function that stops it. */
  subscribe(listener: RunEventListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  emit(event: RunEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
