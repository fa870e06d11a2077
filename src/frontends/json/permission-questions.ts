import { optional, type ToolCallBlock } from "../../core/index.js";
import type { ApprovalAnswer, AskedRequest } from "../../runtime/front-end.js";
import type { JsonEvent } from "./json-events.js";
import type { PermissionDecision } from "./stream-message.js";

interface Pending {
  resolve: (answer: ApprovalAnswer) => void;
  stopWatching: () => void;
  /** The allow rules an `allow_always` adds for the session (none: it allows the tool). */
  rules: readonly string[];
}

/**
 * The run's approval asker over stdin: each question is a `permission_request` event with an id of
 * its own, answered by a `permission_response` line naming it. A question the turn's interrupt
 * overtakes is denied (the turn is over); once stdin has closed every question, open or new, is
 * denied, since nobody is left to answer it. `allow_always` adds the rules the question suggested
 * (`suggested_rules`) for the session, as the terminal's and the editor's "always" do; without
 * any, it allows the tool for the session.
 */
export class PermissionQuestions {
  readonly #emit: (event: JsonEvent) => void;
  readonly #pending = new Map<string, Pending>();
  #asked = 0;
  #closed = false;

  constructor(emit: (event: JsonEvent) => void) {
    this.#emit = emit;
  }

  /** Asks about one call; `signal` is the running turn's (its interrupt denies the question). */
  ask(
    call: ToolCallBlock,
    request: AskedRequest,
    origin: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<ApprovalAnswer> {
    if (this.#closed || signal?.aborted === true) return Promise.resolve("deny");
    this.#asked += 1;
    const id = `permission-${this.#asked}`;
    return new Promise((resolve) => {
      const onAbort = (): void => this.#settle(id, "deny");
      signal?.addEventListener("abort", onAbort, { once: true });
      const rules = request.kind === "escape" ? [] : (request.suggestedRules ?? []);
      this.#pending.set(id, {
        resolve,
        stopWatching: () => signal?.removeEventListener("abort", onAbort),
        rules,
      });
      this.#emit({
        type: "permission_request",
        id,
        tool: call.name,
        input: call.arguments,
        tool_call_id: call.id,
        ...(request.kind === "escape" ? { escape_reason: request.reason } : {}),
        ...(request.kind === "tool" ? optional("rule", request.rule) : {}),
        ...(rules.length === 0 ? {} : { suggested_rules: [...rules] }),
        ...optional("origin", origin),
      });
    });
  }

  /** Answers the open question `id`; false when no question of that id is waiting. */
  answer(id: string, decision: PermissionDecision): boolean {
    const pending = this.#pending.get(id);
    if (pending === undefined) return false;
    if (decision !== "allow_always") this.#settle(id, decision === "allow" ? "once" : "deny");
    else
      this.#settle(
        id,
        pending.rules.length === 0 ? "always" : { allowRules: pending.rules, saveTo: "session" },
      );
    return true;
  }

  /** stdin has closed: every open question is denied, and so is every later one. */
  close(): void {
    this.#closed = true;
    for (const id of [...this.#pending.keys()]) this.#settle(id, "deny");
  }

  #settle(id: string, answer: ApprovalAnswer): void {
    const pending = this.#pending.get(id);
    if (pending === undefined) return;
    this.#pending.delete(id);
    pending.stopWatching();
    pending.resolve(answer);
  }
}
