import type {
  CompactionLedger,
  FileChange,
  LedgerCommand,
  LedgerFile,
  Message,
  ToolCallBlock,
  ToolResultBlock,
  Turn,
} from "../core/index.js";
import { bashRunOutcome } from "../core/index.js";

/** Caps on the ledger, so the compaction block cannot balloon. */
export interface LedgerLimits {
  files: number;
  commands: number;
  /** Changes listed per file (its newest). */
  changesPerFile: number;
}

export const DEFAULT_LEDGER_LIMITS: LedgerLimits = { files: 15, commands: 10, changesPerFile: 4 };

/** A command's text or error line in the ledger: at most this many characters. */
export const LEDGER_TEXT_CHARS = 200;

/**
 * A line of a failed command's output that reads as an error: it names an error, a failure, an
 * exception, a missing thing or a refusal. The first such line is the ledger's error line; when
 * none does, the first non-empty line is.
 */
const ERROR_LINE =
  /\b(error|errors|fail|failed|failure|failing|exception|panic|fatal|cannot|can't|not found|no such|denied|missing|undefined|not ok)\b|✗|✘|×/i;

/** One change or run, in the order the turns made them. */
type LedgerEvent =
  | { kind: "file"; path: string; change: FileChange; turn: number | undefined }
  | { kind: "command"; command: LedgerCommand };

/**
 * The ledger of `turns`: every file a successful `write` created or overwrote, `edit` edited or a
 * successful `rm`/`git rm` in a `bash` command deleted (each change with its turn), and for each
 * distinct command `bash` ran its latest run's outcome (exit status; when it failed, its first
 * error line), newest first, merged over `previous` (the ledger of the compaction this one
 * replaces, all of it older) and capped. `numbers[i]` is the turn number of `turns[i]`, when known.
 * Drawn from tool calls and results only, never from a summary; deterministic and model-free.
 */
export function extractLedger(
  turns: readonly Turn[],
  numbers: readonly (number | undefined)[],
  previous?: CompactionLedger,
  limits: LedgerLimits = DEFAULT_LEDGER_LIMITS,
): CompactionLedger | undefined {
  const events = turns.flatMap((turn, index) => turnEvents(turn.messages, numbers[index]));
  const files = mergeFiles(events, previous?.files ?? []);
  const commands = mergeCommands(events, previous?.commands ?? []);
  if (files.length === 0 && commands.length === 0) return undefined;
  const moreFiles = Math.max(0, files.length - limits.files) + (previous?.moreFiles ?? 0);
  const moreCommands = Math.max(0, commands.length - limits.commands) + (previous?.moreCommands ?? 0);
  return {
    files: files
      .slice(0, limits.files)
      .map((file) => ({ ...file, changes: file.changes.slice(0, limits.changesPerFile) })),
    commands: commands.slice(0, limits.commands),
    ...(moreFiles > 0 ? { moreFiles } : {}),
    ...(moreCommands > 0 ? { moreCommands } : {}),
  };
}

/** The changes and runs of one turn's messages, in order. */
function turnEvents(messages: readonly Message[], turn: number | undefined): LedgerEvent[] {
  const calls = new Map<string, ToolCallBlock>();
  const events: LedgerEvent[] = [];
  for (const message of messages) {
    if (message.role === "assistant")
      for (const block of message.content) if (block.type === "tool-call") calls.set(block.id, block);
    if (message.role !== "tool") continue;
    for (const result of message.content) {
      const call = calls.get(result.toolCallId);
      if (call !== undefined) events.push(...resultEvents(call, result, turn));
    }
  }
  return events;
}

function resultEvents(call: ToolCallBlock, result: ToolResultBlock, turn: number | undefined): LedgerEvent[] {
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  const path = typeof call.arguments.path === "string" ? call.arguments.path.trim() : "";
  if (call.name === "write" && !result.isError && path !== "")
    return [{ kind: "file", path, change: text.startsWith("Created") ? "created" : "written", turn }];
  if (call.name === "edit" && !result.isError && path !== "")
    return [{ kind: "file", path, change: "edited", turn }];
  if (call.name !== "bash" || typeof call.arguments.command !== "string") return [];
  const command = call.arguments.command.trim();
  const outcome = bashRunOutcome(text);
  if (command === "" || outcome === undefined) return [];
  const run: LedgerCommand = {
    command: clip(command),
    ...(turn === undefined ? {} : { turn }),
    exitCode: outcome.exitCode,
    ending: outcome.ending,
  };
  if (outcome.exitCode !== 0) {
    const error = errorLine(outcome.output);
    if (error !== undefined) run.error = error;
  }
  const deleted = outcome.exitCode === 0 ? deletedPaths(command) : [];
  return [
    { kind: "command", command: run },
    ...deleted.map((file): LedgerEvent => ({ kind: "file", path: file, change: "deleted", turn })),
  ];
}

/** The first line of a failed command's output that reads as an error, else its first non-empty line. */
export function errorLine(output: string): string | undefined {
  const lines = output
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line !== "(no output)");
  const line = lines.find((candidate) => ERROR_LINE.test(candidate)) ?? lines[0];
  return line === undefined ? undefined : clip(line);
}

/**
 * The paths a command deletes, read conservatively: each `&&`, `||`, `;` or `|` separated part whose
 * words start with `rm` or `git rm`, its words that are not options. Anything quoted, globbed or
 * expanded is left out rather than guessed.
 */
export function deletedPaths(command: string): string[] {
  const paths: string[] = [];
  for (const part of command.split(/&&|\|\||[;|\n]/)) {
    const words = part.trim().split(/\s+/);
    const start = words[0] === "rm" ? 1 : words[0] === "git" && words[1] === "rm" ? 2 : -1;
    if (start === -1) continue;
    for (const word of words.slice(start))
      if (word !== "" && !word.startsWith("-") && !/[*?$`'"{}~]/.test(word)) paths.push(word);
  }
  return paths;
}

/** A path as the ledger keys it: a leading "./" dropped. */
export function ledgerPathKey(path: string): string {
  return path.replace(/^(\.\/)+/, "");
}

function mergeFiles(events: readonly LedgerEvent[], previous: readonly LedgerFile[]): LedgerFile[] {
  const byPath = new Map<string, LedgerFile>();
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as LedgerEvent;
    if (event.kind !== "file") continue;
    const key = ledgerPathKey(event.path);
    const file = byPath.get(key) ?? { path: event.path, changes: [] };
    file.changes.push({ change: event.change, ...(event.turn === undefined ? {} : { turn: event.turn }) });
    byPath.set(key, file);
  }
  for (const file of previous) {
    const known = byPath.get(ledgerPathKey(file.path));
    if (known === undefined) byPath.set(ledgerPathKey(file.path), structuredClone(file));
    else known.changes.push(...structuredClone(file.changes));
  }
  return [...byPath.values()];
}

function mergeCommands(events: readonly LedgerEvent[], previous: readonly LedgerCommand[]): LedgerCommand[] {
  const byText = new Map<string, LedgerCommand>();
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as LedgerEvent;
    if (event.kind === "command" && !byText.has(event.command.command))
      byText.set(event.command.command, event.command);
  }
  for (const command of previous)
    if (!byText.has(command.command)) byText.set(command.command, structuredClone(command));
  return [...byText.values()];
}

function clip(text: string): string {
  return text.length <= LEDGER_TEXT_CHARS ? text : `${text.slice(0, LEDGER_TEXT_CHARS - 1)}…`;
}
