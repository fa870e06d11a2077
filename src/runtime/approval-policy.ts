import type { ApprovalRequest, ApprovalVerdict } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { SourcedRule } from "../permissions/decide-permission.js";
import type { Tool } from "../tools/index.js";
import type { ApprovalAsker } from "./front-end.js";
import type { RunRules } from "./run-rules.js";

/** What the model is told when it asks to leave the sandbox where nobody can be asked. */
export const ESCAPE_REFUSED =
  "nobody can be asked in print and JSON modes, so commands outside the sandbox are refused there unless panto is started with --allow-unsandboxed. Do the task inside the sandbox, or tell the user what needs the escape.";

/**
 * How freely tool calls run: "ask" before every call that changes things; "accept-edits" lets the
 * file tools (write, edit) run and still asks for commands and MCP tools; "allow-all" asks nothing
 * (--allow-tools); "plan" changes nothing (--plan, /plan: see plan-mode-guard.ts): write and edit
 * are refused, commands run in a read-only sandbox, and what is still asked is asked as in the
 * mode before it.
 */
export type ApprovalMode = "ask" | "accept-edits" | "allow-all" | "plan";

/** The modes that let the model change things: the one before plan mode is one of them. */
export type WorkingMode = Exclude<ApprovalMode, "plan">;

/**
 * The modes as a front-end offers them (an editor's mode menu), in order of increasing freedom:
 * plan mode first.
 */
export const APPROVAL_MODES: ReadonlyArray<{ id: ApprovalMode; name: string; description: string }> = [
  {
    id: "plan",
    name: "Plan",
    description:
      "read, search and plan only: write and edit are refused, commands run read-only; leaving returns to the mode before",
  },
  {
    id: "ask",
    name: "Ask",
    description:
      "ask before every write, edit, MCP tool that changes things, and command the sandbox does not confine",
  },
  {
    id: "accept-edits",
    name: "Accept edits",
    description: "write and edit run without asking; unconfined commands and MCP tools still ask",
  },
  {
    id: "allow-all",
    name: "Allow all",
    description: "every tool call runs without asking, except a request to leave the sandbox",
  },
];

/**
 * Whether a tool call may run, for every front-end alike. The agent asks only about calls that
 * need the user (write and edit outside a sandbox, bash outside a sandbox or configured to ask,
 * MCP tools not marked read-only, and every request to leave the sandbox). The mode may allow it
 * (allow all, --allow-tools; accept edits for write and edit); a tool the user allowed "always"
 * runs for the rest of the run; otherwise the front-end's asker decides, and without one (print
 * and JSON modes) the call is denied and `onDenied` says so. An escape from the sandbox is never
 * covered by a mode, --allow-tools or "always": it is asked every time, and where nobody can be
 * asked it is refused unless `allowUnsandboxed` (--allow-unsandboxed).
 */
export class ApprovalPolicy {
  #mode: ApprovalMode;
  /** The mode plan mode returns to (and whose answers hold meanwhile); the mode itself outside plan mode. */
  #working: WorkingMode;
  readonly #onModeChanged: ((mode: ApprovalMode, previous: ApprovalMode) => void) | undefined;
  readonly #startedAllowAll: boolean;
  readonly allowUnsandboxed: boolean;
  readonly #ask: ApprovalAsker | undefined;
  readonly #onDenied: (
    call: ToolCallBlock,
    leaving: boolean,
    origin: string | undefined,
    rule?: string,
  ) => void;
  readonly #granted = new Set<string>();
  /** Questions go one at a time: `task` children working in parallel may ask together. */
  #asking: Promise<unknown> = Promise.resolve();
  /** Tools allowed while a custom command's prompt runs (its `allowed-tools`), lower case. */
  readonly #scoped: string[][] = [];

  /** Config "permissions" of every file and those added this run, for `/permissions` (live). */
  readonly rules: readonly SourcedRule[];
  readonly #runRules: RunRules | undefined;
  readonly #onRulesAdded: ((rules: readonly string[], file: string | undefined) => void) | undefined;
  readonly #onRulesFailed: ((message: string) => void) | undefined;

  constructor(options: {
    /** Config "permissions", as loaded (ignored with `runRules`, whose list is live). */
    rules?: readonly SourcedRule[];
    /** The run's rules: what an "always" suggests and adds. */
    runRules?: RunRules;
    /** Told when an "always" added rules (and the file it saved them to). */
    onRulesAdded?: (rules: readonly string[], file: string | undefined) => void;
    /** Told when they could not be saved (the call still runs this once). */
    onRulesFailed?: (message: string) => void;
    /** --allow-tools: the same as mode "allow-all". */
    allowAll?: boolean;
    mode?: ApprovalMode;
    /** Start in plan mode (--plan); leaving it returns to `mode` (or allow-all with `allowAll`). */
    plan?: boolean;
    /** Told after every change of mode (not of the mode the run starts in). */
    onModeChanged?: (mode: ApprovalMode, previous: ApprovalMode) => void;
    allowUnsandboxed?: boolean;
    ask?: ApprovalAsker;
    /** A call denied without a question; `leaving`: it asked to leave the sandbox; `origin`: the subagent that made it. */
    /** `rule`: the permission rule that asks, when one did (nobody could be asked). */
    onDenied: (call: ToolCallBlock, leaving: boolean, origin: string | undefined, rule?: string) => void;
  }) {
    const start = options.allowAll === true ? "allow-all" : (options.mode ?? "ask");
    this.#working = start === "plan" ? "ask" : start;
    this.#startedAllowAll = start === "allow-all";
    this.#mode = options.plan === true ? "plan" : start;
    this.#onModeChanged = options.onModeChanged;
    this.allowUnsandboxed = options.allowUnsandboxed === true;
    this.#ask = options.ask;
    this.#onDenied = options.onDenied;
    this.#runRules = options.runRules;
    this.rules = options.runRules?.list ?? options.rules ?? [];
    this.#onRulesAdded = options.onRulesAdded;
    this.#onRulesFailed = options.onRulesFailed;
  }

  /**
   * The run's rules, live: what `/permissions remove` changes, and the files an "always" may save
   * to (`files`), which a front-end shows. Undefined for a policy made without them (tests).
   */
  get runRules(): RunRules | undefined {
    return this.#runRules;
  }

  get mode(): ApprovalMode {
    return this.#mode;
  }

  /** The mode plan mode returns to; outside plan mode, the mode itself. */
  get workingMode(): WorkingMode {
    return this.#working;
  }

  /**
   * Changes the mode from the next call on ("always" answers given so far still hold) and tells
   * `onModeChanged`; entering plan mode remembers the mode it leaves, for `leavePlan`. Setting the
   * mode in force does nothing.
   */
  setMode(mode: ApprovalMode): void {
    const previous = this.#mode;
    if (mode === previous) return;
    if (mode !== "plan") this.#working = mode;
    this.#mode = mode;
    this.#onModeChanged?.(mode, previous);
  }

  /**
   * The terminal's Shift+Tab order: ask, accept edits, plan, and round again; allow all between
   * accept edits and plan only in a run started with it (--allow-tools), so a key never grants it.
   */
  get cycle(): readonly ApprovalMode[] {
    return this.#startedAllowAll
      ? ["ask", "accept-edits", "allow-all", "plan"]
      : ["ask", "accept-edits", "plan"];
  }

  /** Shift+Tab: the next mode of `cycle` (from plan mode, back to its start: ask). */
  cycleMode(): void {
    const order = this.cycle;
    const index = order.indexOf(this.#mode);
    this.setMode(order[(index + 1) % order.length] ?? "ask");
  }

  /** Leaves plan mode for the mode that was in force before it (nothing outside plan mode). */
  leavePlan(): void {
    this.setMode(this.#working);
  }

  /** Every call runs without a question (mode "allow-all", --allow-tools; plan mode entered from it). */
  get allowAll(): boolean {
    return this.#working === "allow-all";
  }

  /** The tools the user allowed "always" in this run, in the order they were allowed (`/tools`). */
  granted(): readonly string[] {
    return [...this.#granted];
  }

  /**
   * Runs `work` with the tools named in `toolNames` (any case) allowed without a question: a custom
   * command's `allowed-tools`. The allowance ends with `work`.
   */
  async allowDuring<T>(toolNames: readonly string[], work: () => Promise<T>): Promise<T> {
    const names = toolNames.map((name) => name.toLowerCase());
    this.#scoped.push(names);
    try {
      return await work();
    } finally {
      this.#scoped.splice(this.#scoped.indexOf(names), 1);
    }
  }

  /**
   * Whether `tool` runs without a question now: the mode, an earlier "always", or a custom
   * command's `allowed-tools` while its prompt runs. Never true of a request to leave the sandbox:
   * `decide` asks about each of those.
   */
  allowsWithoutAsking(tool: Tool): boolean {
    // Plan mode refuses what it must before this (plan-mode-guard.ts); the rest is asked as before it.
    if (this.#working === "allow-all") return true;
    if (this.#working === "accept-edits" && tool.kind === "write") return true;
    const name = tool.definition.name;
    if (this.#granted.has(name)) return true;
    return this.#scoped.some((names) => names.includes(name.toLowerCase()));
  }

  /**
   * The agent's `approve`: the verdict on one call; `origin` labels a question a child agent asks.
   * Questions go one at a time (children working in parallel may ask together).
   */
  readonly decide = async (
    call: ToolCallBlock,
    tool: Tool,
    request: ApprovalRequest = { kind: "tool" },
    origin?: string,
  ): Promise<ApprovalVerdict> => {
    if (request.kind === "escape") return this.#decideEscape(call, tool, request, origin);
    // A permission rule that asks is asked whatever the mode or an earlier "always".
    const ruleAsks = request.rule !== undefined;
    if (!ruleAsks && this.allowsWithoutAsking(tool)) return "allow";
    if (this.#ask === undefined) {
      this.#onDenied(call, false, origin, request.rule);
      if (ruleAsks)
        return {
          deny: true,
          reason: `the permission rule ${request.rule} asks the user first, and nobody can be asked in print and JSON modes`,
        };
      return "deny";
    }
    const asked = this.#asking.then(() => this.#askOnce(call, tool, request, origin));
    this.#asking = asked.catch(() => undefined);
    return asked;
  };

  async #askOnce(
    call: ToolCallBlock,
    tool: Tool,
    request: ApprovalRequest,
    origin: string | undefined,
  ): Promise<ApprovalVerdict> {
    const name = tool.definition.name;
    // An earlier question of the queue may have allowed this tool for good (not one a rule asks about).
    if (request.kind === "tool" && request.rule === undefined && this.#granted.has(name)) return "allow";
    const ask = this.#ask as ApprovalAsker;
    // A rule that asks is asked every time: no "always" is offered as a rule that would not hold.
    const suggested =
      request.kind === "tool" && request.rule === undefined && this.#runRules !== undefined
        ? await this.#runRules.suggest(call).catch(() => [])
        : [];
    const answer = await ask(
      call,
      tool,
      suggested.length > 0 ? { ...request, suggestedRules: suggested } : request,
      origin,
    );
    if (typeof answer === "object" && "allowRules" in answer) {
      await this.#addRules(answer.allowRules, answer.saveTo);
      return "allow";
    }
    if (answer === "always") this.#granted.add(name);
    return answer === "once" || answer === "always" ? "allow" : answer;
  }

  /** An "always" as rules: in force from the next call; a failure to save is told, and this call still runs. */
  async #addRules(rules: readonly string[], saveTo: "session" | "local" | "user"): Promise<void> {
    const runRules = this.#runRules;
    if (runRules === undefined || rules.length === 0) return;
    try {
      const file = await runRules.allow(rules, saveTo);
      this.#onRulesAdded?.(rules, file);
    } catch (error) {
      this.#onRulesFailed?.(error instanceof Error ? error.message : String(error));
    }
  }

  async #decideEscape(
    call: ToolCallBlock,
    tool: Tool,
    request: ApprovalRequest,
    origin: string | undefined,
  ): Promise<ApprovalVerdict> {
    if (this.#ask === undefined) {
      if (this.allowUnsandboxed) return "allow";
      this.#onDenied(call, true, origin);
      return { deny: true, reason: ESCAPE_REFUSED };
    }
    const ask = this.#ask;
    const asked = this.#asking.then(() => ask(call, tool, request, origin));
    this.#asking = asked.catch(() => undefined);
    const answer = await asked;
    // "always" does not carry over to the next escape: this one runs, the next is asked again.
    if (typeof answer === "object" && "allowRules" in answer) return "allow";
    return answer === "once" || answer === "always" ? "allow" : answer;
  }
}
