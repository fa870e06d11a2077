import type { ApprovalVerdict } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import type { ApprovalAsker } from "./front-end.js";

/**
 * How freely tool calls run: "ask" before every call that changes things; "accept-edits" lets the
 * file tools (write, edit) run and still asks for commands and MCP tools; "allow-all" asks nothing
 * (--allow-tools).
 */
export type ApprovalMode = "ask" | "accept-edits" | "allow-all";

/** The modes as a front-end offers them (an editor's mode menu), in order of increasing freedom. */
export const APPROVAL_MODES: ReadonlyArray<{ id: ApprovalMode; name: string; description: string }> = [
  {
    id: "ask",
    name: "Ask",
    description: "ask before every write, edit, command and MCP tool that changes things",
  },
  {
    id: "accept-edits",
    name: "Accept edits",
    description: "write and edit run without asking; commands and MCP tools still ask",
  },
  { id: "allow-all", name: "Allow all", description: "every tool call runs without asking" },
];

/**
 * Whether a tool call may run, for every front-end alike. The agent asks only about tools that
 * change things (write, edit, bash, MCP tools not marked read-only). The mode may allow it (allow
 * all, --allow-tools; accept edits for write and edit); a tool the user allowed "always" runs for
 * the rest of the run; otherwise the front-end's asker decides, and without one (print and JSON
 * modes) the call is denied and `onDenied` says so.
 */
export class ApprovalPolicy {
  #mode: ApprovalMode;
  readonly #ask: ApprovalAsker | undefined;
  readonly #onDenied: (call: ToolCallBlock) => void;
  readonly #granted = new Set<string>();
  /** Tools allowed while a custom command's prompt runs (its `allowed-tools`), lower case. */
  readonly #scoped: string[][] = [];

  constructor(options: {
    /** --allow-tools: the same as mode "allow-all". */
    allowAll?: boolean;
    mode?: ApprovalMode;
    ask?: ApprovalAsker;
    onDenied: (call: ToolCallBlock) => void;
  }) {
    this.#mode = options.allowAll === true ? "allow-all" : (options.mode ?? "ask");
    this.#ask = options.ask;
    this.#onDenied = options.onDenied;
  }

  get mode(): ApprovalMode {
    return this.#mode;
  }

  /** Changes the mode from the next call on ("always" answers given so far still hold). */
  setMode(mode: ApprovalMode): void {
    this.#mode = mode;
  }

  /** Every call runs without a question (mode "allow-all", --allow-tools). */
  get allowAll(): boolean {
    return this.#mode === "allow-all";
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
   * command's `allowed-tools` while its prompt runs.
   */
  allowsWithoutAsking(tool: Tool): boolean {
    if (this.#mode === "allow-all") return true;
    if (this.#mode === "accept-edits" && tool.kind === "write") return true;
    const name = tool.definition.name;
    if (this.#granted.has(name)) return true;
    return this.#scoped.some((names) => names.includes(name.toLowerCase()));
  }

  /** The agent's `approve`: the verdict on one call. */
  readonly decide = async (call: ToolCallBlock, tool: Tool): Promise<ApprovalVerdict> => {
    if (this.allowsWithoutAsking(tool)) return "allow";
    if (this.#ask === undefined) {
      this.#onDenied(call);
      return "deny";
    }
    const answer = await this.#ask(call, tool);
    if (answer === "always") this.#granted.add(tool.definition.name);
    return answer === "once" || answer === "always" ? "allow" : answer;
  };
}
