import type { ToolCallBlock, ToolResultBlock } from "../core/index.js";

/** One command a child ran (or tried to), with how it ended. */
export interface CommandRun {
  command: string;
  /** "Exit code: 0", "Command killed by SIGTERM", or why it did not run (denied, blocked). */
  outcome: string;
  failed: boolean;
}

/**
 * What a child agent did with its tools, gathered from its tool calls and results as they happen:
 * the files it read and changed, and the commands it ran. Each path is listed once, in first-seen order.
 */
export class TaskActivity {
  readonly filesRead: string[] = [];
  readonly filesChanged: string[] = [];
  readonly commands: CommandRun[] = [];
  readonly #calls = new Map<string, ToolCallBlock>();

  call(call: ToolCallBlock): void {
    this.#calls.set(call.id, call);
  }

  result(result: ToolResultBlock): void {
    const call = this.#calls.get(result.toolCallId);
    if (call === undefined) return;
    const { path, command } = call.arguments;
    const denied = result.isError && NOT_RUN.test(textOf(result));
    if (call.name === "bash" && typeof command === "string") {
      this.commands.push({ command: command.trim(), outcome: outcomeOf(result), failed: result.isError });
    } else if (typeof path === "string" && !denied && !result.isError) {
      if (call.name === "read") addOnce(this.filesRead, path);
      if (call.name === "write" || call.name === "edit") addOnce(this.filesChanged, path);
    }
  }
}

/** The first words of a result for a call that never ran (denied, blocked by a hook, interrupted). */
const NOT_RUN = /^(The user did not allow|Blocked by a PreToolUse hook|Not run:)/;

function addOnce(list: string[], item: string): void {
  if (!list.includes(item)) list.push(item);
}

function textOf(result: ToolResultBlock): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

/** A bash result's last line says how it ended; a call that never ran says why on its first. */
function outcomeOf(result: ToolResultBlock): string {
  const lines = textOf(result)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const text = textOf(result);
  const line = NOT_RUN.test(text) ? lines[0] : lines.at(-1);
  return (line ?? (result.isError ? "failed" : "ok")).slice(0, 160);
}
