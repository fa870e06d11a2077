import type { Interface } from "node:readline";
import type { ToolCallBlock } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import { approvalQuestion, describeApproval, parseApprovalAnswer } from "./approval-preview.js";
import type { MutableOutput } from "./mutable-output.js";
import type { Style } from "./render.js";
import type { TerminalRenderer } from "./terminal-renderer.js";

interface Pending {
  toolName: string;
  question: string;
  resolve: (allowed: boolean) => void;
}

/**
 * The permission question before write, edit and bash: shows what the call will do, then asks
 * y (this once), a (always for this tool, this session) or n (the default). Anything else is asked
 * again rather than taken as no. Text typed ahead before the question is put aside and restored.
 */
export class ApprovalPrompt {
  readonly #renderer: TerminalRenderer;
  readonly #style: Style;
  readonly #alwaysAllowed = new Set<string>();
  #pending: Pending | undefined;

  constructor(renderer: TerminalRenderer, style: Style) {
    this.#renderer = renderer;
    this.#style = style;
  }

  /** True while a question waits for its answer: the next line typed is the answer. */
  get waiting(): boolean {
    return this.#pending !== undefined;
  }

  /** Whether the user already allowed this tool for the rest of the session. */
  allowedAlways(toolName: string): boolean {
    return this.#alwaysAllowed.has(toolName);
  }

  /** Asks about one call; resolves when the user answers (or cancels). */
  ask(rl: Interface, output: MutableOutput, call: ToolCallBlock, tool: Tool): Promise<boolean> {
    const typedAhead = takeLine(rl);
    const wasMuted = output.muted;
    output.muted = false;
    const toolName = tool.definition.name;
    const question = this.#style.yellow(approvalQuestion(toolName, this.#renderer.columns));
    const preview = describeApproval(call);
    if (preview.length > 0) this.#renderer.line(this.#style.bold(preview.join("\n")));
    return new Promise((resolve) => {
      this.#pending = {
        toolName,
        question,
        resolve: (allowed) => {
          this.#pending = undefined;
          output.muted = wasMuted;
          if (typedAhead !== "") rl.write(typedAhead);
          resolve(allowed);
        },
      };
      rl.setPrompt(question);
      rl.prompt();
    });
  }

  /** Takes a typed line as the answer to the waiting question. */
  answer(rl: Interface, line: string): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    const choice = parseApprovalAnswer(line);
    if (choice === undefined) {
      this.#renderer.line(
        this.#style.dim(
          `  answer y (yes, this once), a (always for ${pending.toolName} this session) or n (no)`,
        ),
      );
      rl.prompt();
      return;
    }
    if (choice === "always") this.#alwaysAllowed.add(pending.toolName);
    this.#renderer.line(this.#style.dim(choice === "no" ? "  denied" : "  allowed"));
    pending.resolve(choice !== "no");
  }

  /** Denies the waiting call (Ctrl-C, Ctrl-D). */
  cancel(): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    this.#renderer.line(this.#style.dim("\n  denied"));
    pending.resolve(false);
  }
}

/** Removes and returns what is typed on the prompt line (as Ctrl-E then Ctrl-U would). */
export function takeLine(rl: Interface): string {
  const typed = rl.line;
  if (typed !== "") {
    rl.write(null, { ctrl: true, name: "e" });
    rl.write(null, { ctrl: true, name: "u" });
  }
  return typed;
}
