import {
  type CompactionLedger,
  type FlaggedTodoItem,
  type LedgerCommand,
  type LedgerFile,
  type Message,
  TODO_STATUSES,
  type TodoItem,
  type TodoStatus,
} from "../core/index.js";
import { ledgerPathKey } from "./extract-ledger.js";
import { normaliseForMatch } from "./normalise-for-match.js";

/** The name of the task list tool. */
export const TODO_TOOL = "todo";

/**
 * The items of a `todo` call's arguments, or undefined when they are not a list of items (a call
 * the tool refused for it). Read from the session, so checked again rather than trusted.
 */
export function todoItemsOf(args: Record<string, unknown>): TodoItem[] | undefined {
  const items = args.items;
  if (!Array.isArray(items)) return undefined;
  const read: TodoItem[] = [];
  for (const item of items) {
    if (typeof item !== "object" || item === null) return undefined;
    const { content, status, evidence } = item as Record<string, unknown>;
    if (typeof content !== "string" || !isStatus(status)) return undefined;
    read.push({ content, status, ...(typeof evidence === "string" ? { evidence } : {}) });
  }
  return read;
}

function isStatus(value: unknown): value is TodoStatus {
  return typeof value === "string" && (TODO_STATUSES as readonly string[]).includes(value);
}

/**
 * The list the latest accepted `todo` call of `messages` set (a call whose result is not an error),
 * or undefined when they hold none: then the list in force is the one the compaction block carries.
 */
export function latestTodoList(messages: readonly Message[]): TodoItem[] | undefined {
  const accepted = new Set<string>();
  for (const message of messages)
    if (message.role === "tool")
      for (const result of message.content) if (!result.isError) accepted.add(result.toolCallId);
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role !== "assistant") continue;
    for (let at = message.content.length - 1; at >= 0; at--) {
      const block = message.content[at];
      if (block?.type !== "tool-call" || block.name !== TODO_TOOL || !accepted.has(block.id)) continue;
      const items = todoItemsOf(block.arguments);
      if (items !== undefined) return items;
    }
  }
  return undefined;
}

/** The items marked `in_progress`, when more than one is: the tool refuses such a list. */
export function tooManyInProgress(items: readonly TodoItem[]): string | undefined {
  const running = items.filter((item) => item.status === "in_progress");
  if (running.length <= 1) return undefined;
  const named = running.map((item) => `"${item.content}"`).join(", ");
  return `todo: at most one item may be in_progress, and ${running.length} are: ${named}. Mark the others pending (or completed), then call todo again with the whole list; the list was not changed.`;
}

/** The items with the flags the ledger gives them now (see `todoFlag`). */
export function flagTodos(
  items: readonly TodoItem[],
  ledger: CompactionLedger | undefined,
): FlaggedTodoItem[] {
  return items.map((item) => {
    const flag = todoFlag(item, ledger);
    return flag === undefined ? { ...item } : { ...item, flag };
  });
}

/**
 * What the ledger says against a `completed` item, or undefined when it says nothing against it.
 * Evidence naming a command (matched as the claim check matches: the evidence holds the command's
 * text, or the command is the evidence with more arguments): flagged when its latest run failed.
 * Evidence naming a file the ledger lists: flagged when it was deleted last, or changed in a turn
 * after the latest passing run of any command (nothing has checked the change since). Evidence the
 * ledger does not know is not flagged: nothing contradicts it.
 */
export function todoFlag(item: TodoItem, ledger: CompactionLedger | undefined): string | undefined {
  if (item.status !== "completed" || item.evidence === undefined || ledger === undefined) return undefined;
  const command = latestRun(item.evidence, ledger.commands);
  if (command !== undefined) {
    if (command.exitCode === 0) return undefined;
    return `completed, but the latest \`${command.command}\`${turnNote(command.turn)} ${ended(command)}`;
  }
  const file = fileOf(item.evidence, ledger.files);
  const change = file?.changes[0];
  if (file === undefined || change === undefined) return undefined;
  if (change.change === "deleted") return `completed, but \`${file.path}\` was deleted${inTurn(change.turn)}`;
  const passed = ledger.commands.find((run) => run.exitCode === 0);
  if (change.turn === undefined || passed?.turn === undefined || change.turn <= passed.turn) return undefined;
  return `completed, but \`${file.path}\` was ${change.change} in turn ${change.turn}, after the latest passing run (\`${passed.command}\`, turn ${passed.turn})`;
}

/** How the item's evidence stands in the ledger, in words (`/todo`): its latest run or change. */
export function evidenceState(evidence: string, ledger: CompactionLedger | undefined): string {
  const command = latestRun(evidence, ledger?.commands ?? []);
  if (command !== undefined) {
    const how = command.exitCode === 0 ? "passed" : ended(command);
    return `\`${command.command}\` ${how}${inTurn(command.turn)}`;
  }
  const file = fileOf(evidence, ledger?.files ?? []);
  const change = file?.changes[0];
  if (file !== undefined && change !== undefined)
    return `\`${file.path}\` ${change.change}${inTurn(change.turn)}`;
  return /\s/.test(evidence.trim())
    ? `\`${evidence}\` not run in this session`
    : `\`${evidence}\` not run or changed in this session`;
}

/** The latest run among the ledger's commands (newest first) the evidence names. */
function latestRun(evidence: string, commands: readonly LedgerCommand[]): LedgerCommand | undefined {
  const named = normaliseForMatch(evidence);
  if (named === "") return undefined;
  return commands.find((run) => {
    const command = normaliseForMatch(run.command);
    return command !== "" && (named.includes(command) || command.startsWith(`${named} `));
  });
}

function fileOf(evidence: string, files: readonly LedgerFile[]): LedgerFile | undefined {
  const key = ledgerPathKey(evidence.trim().replace(/^`|`$/g, ""));
  if (key === "" || /\s/.test(key)) return undefined;
  return files.find((file) => {
    const path = ledgerPathKey(file.path);
    return path === key || path.endsWith(`/${key}`) || key.endsWith(`/${path}`);
  });
}

function ended(command: LedgerCommand): string {
  return command.exitCode === null ? command.ending : `exited ${command.exitCode}`;
}

function turnNote(turn: number | undefined): string {
  return turn === undefined ? "" : ` (turn ${turn})`;
}

function inTurn(turn: number | undefined): string {
  return turn === undefined ? "" : ` in turn ${turn}`;
}

/** How many items are completed, of how many (cancelled ones left out of both). */
export function todoProgress(items: readonly TodoItem[]): { completed: number; total: number } {
  const counted = items.filter((item) => item.status !== "cancelled");
  return { completed: counted.filter((item) => item.status === "completed").length, total: counted.length };
}
