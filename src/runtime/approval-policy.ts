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

  constructor(options: { allowAll: boolean; ask?: ApprovalAsker; onDenied: (call: ToolCallBlock) => void }) {
    this.allowAll = options.allowAll;
    this.#ask = options.ask;
    this.#onDenied = options.onDenied;
  }

  /** The tools the user allowed "always" in this run, in the order they were allowed (`/tools`). */
  granted(): readonly string[] {
    return [...this.#granted];
  }

  /** The agent's `approve`: the verdict on one call. */
  readonly decide = async (call: ToolCallBlock, tool: Tool): Promise<ApprovalVerdict> => {
    const name = tool.definition.name;
    if (this.allowAll || this.#granted.has(name)) return "allow";
    if (this.#ask === undefined) {
      this.#onDenied(call);
      return "deny";
    }
    const answer = await this.#ask(call, tool);
    if (answer === "always") this.#granted.add(name);
    return answer === "once" || answer === "always" ? "allow" : answer;
  };
}
