import type { ApprovalVerdict } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import type { ApprovalAsker } from "./front-end.js";

/**
 * Whether a tool call may run, for every front-end alike. The agent asks only about tools that
 * change things (write, edit, bash, MCP tools not marked read-only). With `allowAll`
 * (--allow-tools) each runs; a tool the user allowed "always" runs for the rest of the run;
 * otherwise the front-end's asker decides, and without one (print and JSON modes) the call is
 * denied and `onDenied` says so.
 */
export class ApprovalPolicy {
  readonly allowAll: boolean;
  readonly #ask: ApprovalAsker | undefined;
  readonly #onDenied: (call: ToolCallBlock) => void;
  readonly #granted = new Set<string>();
  /** Questions go one at a time: `task` children working in parallel may ask together. */
  #asking: Promise<unknown> = Promise.resolve();
  /** Tools allowed while a custom command's prompt runs (its `allowed-tools`), lower case. */
  readonly #scoped: string[][] = [];

  constructor(options: { allowAll: boolean; ask?: ApprovalAsker; onDenied: (call: ToolCallBlock) => void }) {
    this.allowAll = options.allowAll;
    this.#ask = options.ask;
    this.#onDenied = options.onDenied;
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

  /** The agent's `approve`: the verdict on one call; `origin` labels a question a child agent asks. */
  readonly decide = async (call: ToolCallBlock, tool: Tool, origin?: string): Promise<ApprovalVerdict> => {
    const name = tool.definition.name;
    if (this.allowAll || this.#granted.has(name)) return "allow";
    if (this.#scoped.some((names) => names.includes(name.toLowerCase()))) return "allow";
    if (this.#ask === undefined) {
      this.#onDenied(call);
      return "deny";
    }
    const asked = this.#asking.then(() => this.#askOnce(call, tool, origin));
    this.#asking = asked.catch(() => undefined);
    return asked;
  };

  async #askOnce(call: ToolCallBlock, tool: Tool, origin: string | undefined): Promise<ApprovalVerdict> {
    const name = tool.definition.name;
    // An earlier question of the queue may have allowed this tool for good.
    if (this.#granted.has(name)) return "allow";
    const ask = this.#ask as ApprovalAsker;
    const answer = await ask(call, tool, origin);
    if (answer === "always") this.#granted.add(name);
    return answer === "once" || answer === "always" ? "allow" : answer;
  }
}
