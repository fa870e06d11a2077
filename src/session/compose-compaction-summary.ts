import type {
  CompactionLedger,
  CompactionRecord,
  FlaggedTodoItem,
  LedgerCommand,
  LedgerFile,
  RestoredFact,
  UnverifiedClaim,
} from "../core/index.js";

/**
 * The fixed heading of the restored facts, after the summary: what panto read from the summarised
 * turns' tool calls and results itself (the ledger, the claims it contradicts, the facts the
 * summary left out). One section, whatever parts it has.
 */
export const RESTORED_FACTS_HEADING =
  "## Restored facts (recorded by panto from the summarised turns' tool calls and results, not by the summariser)";

/** The fixed heading the skills loaded before the compaction are listed under. */
export const LOADED_SKILLS_HEADING =
  "## Skills loaded earlier (their instructions were summarised away: call the skill tool again before relying on one)";

/** The fixed heading pinned notes are listed under, last in the compaction block. */
export const PINNED_NOTES_HEADING = "## Pinned notes (from the user, verbatim; always in force)";

/** The fixed heading the task list in force at the compaction is listed under, before the pinned notes. */
export const TODO_LIST_HEADING =
  "## Task list (kept with the todo tool, as it stood at this compaction; a later todo call replaces it)";

/** The block's opening when pinned notes exist but nothing has been summarised yet. */
export const NO_SUMMARY_YET = "Nothing has been summarised yet; the whole conversation follows verbatim.";

/** The fixed sentence after the summary: which turns it stands for, and that they can be looked up. */
export function recallPointer(through: number): string {
  const turns = through === 1 ? "turn 1" : `turns 1 to ${through}`;
  return `This summary stands for ${turns} of this session. Their full text is still on record: the \`recall\` tool searches it and reads any turn back by its number.`;
}

/** What the compaction block is made of, each part left out when absent or empty. */
export interface CompactionBlockParts {
  summary: string;
  /** The last turn the summary stands for: the recall pointer names turns 1 to it. */
  through?: number;
  restored?: readonly RestoredFact[];
  ledger?: CompactionLedger;
  unverified?: readonly UnverifiedClaim[];
  skills?: readonly string[];
  todos?: readonly FlaggedTodoItem[];
  pins?: readonly string[];
}

/**
 * The parts of the block a compaction record makes: summary, recall pointer and restored facts (no
 * pins). Compactions written before turns were numbered have no pointer, and their block stays
 * byte for byte what it was.
 */
export function blockParts(record: CompactionRecord): CompactionBlockParts {
  return {
    summary: record.summary,
    ...(record.turns === undefined ? {} : { through: record.turns.through }),
    ...(record.restored === undefined ? {} : { restored: record.restored }),
    ...(record.ledger === undefined ? {} : { ledger: record.ledger }),
    ...(record.unverified === undefined ? {} : { unverified: record.unverified }),
    ...(record.skills === undefined ? {} : { skills: record.skills }),
    ...(record.todos === undefined ? {} : { todos: record.todos }),
  };
}

/**
 * The text of the compaction block the model sees: the summary, the recall pointer, the restored
 * facts (files changed, commands and their latest outcome, the facts the summary left out, and an
 * "Unverified:" line for each claim of the summary they contradict), the skills loaded earlier,
 * the task list in force (with its flags then), then the pinned notes, each
 * section under its fixed heading and left out when empty. With none of them, the text is the
 * summary unchanged. Byte-stable for the same inputs, so the block stays cacheable until a pin
 * changes or a compaction replaces it.
 */
export function composeCompactionSummary(parts: CompactionBlockParts): string {
  const sections = [parts.summary.trim() === "" ? NO_SUMMARY_YET : parts.summary];
  if (parts.through !== undefined) sections.push(recallPointer(parts.through));
  const restored = restoredSection(parts);
  if (restored.length > 0) sections.push([RESTORED_FACTS_HEADING, ...restored].join("\n"));
  const skills = parts.skills ?? [];
  if (skills.length > 0)
    sections.push(`${LOADED_SKILLS_HEADING}\n${skills.map((name) => `- ${name}`).join("\n")}`);
  const todos = parts.todos ?? [];
  if (todos.length > 0) sections.push([TODO_LIST_HEADING, ...todoLines(todos)].join("\n"));
  const pins = parts.pins ?? [];
  if (pins.length > 0)
    sections.push(`${PINNED_NOTES_HEADING}\n${pins.map((pin, index) => `${index + 1}. ${pin}`).join("\n")}`);
  return sections.join("\n\n");
}

/** A ledger as lines: the files changed, then each command's latest run, newest first. */
export function ledgerLines(ledger: CompactionLedger | undefined): string[] {
  const lines: string[] = [];
  if (ledger !== undefined && ledger.files.length > 0) {
    lines.push("Files changed, newest first:", ...ledger.files.map(fileLine));
    if (ledger.moreFiles !== undefined) lines.push(`(and ${ledger.moreFiles} more, older)`);
  }
  if (ledger !== undefined && ledger.commands.length > 0) {
    lines.push("Commands, the latest run of each, newest first:", ...ledger.commands.map(commandLine));
    if (ledger.moreCommands !== undefined) lines.push(`(and ${ledger.moreCommands} more, older)`);
  }
  return lines;
}

function restoredSection(parts: CompactionBlockParts): string[] {
  const lines = ledgerLines(parts.ledger);
  const restored = parts.restored ?? [];
  if (restored.length > 0) {
    // Without a ledger (compactions written before it existed) the list stands alone.
    if (lines.length > 0) lines.push("Not in the summary:");
    lines.push(...restored.map((fact) => `- ${fact.kind}: ${fact.text}`));
  }
  for (const claim of parts.unverified ?? [])
    lines.push(`Unverified: the summary says "${claim.claim}", but ${claim.evidence}.`);
  return lines;
}

function inTurn(turn: number | undefined): string {
  return turn === undefined ? "" : ` in turn ${turn}`;
}

function fileLine(file: LedgerFile): string {
  return `- ${file.path}: ${file.changes.map((change) => `${change.change}${inTurn(change.turn)}`).join("; ")}`;
}

function commandLine(command: LedgerCommand): string {
  const error = command.error === undefined ? "" : `; first error: ${command.error}`;
  return `- ${command.command} → ${command.ending}${inTurn(command.turn)}${error}`;
}

/**
 * The task list as lines, one per item with its status as a word, its evidence and any flag under
 * it: the todo tool's answer, `/todo` and the compaction block all show it so. Byte-stable.
 */
export function todoLines(items: readonly FlaggedTodoItem[]): string[] {
  return items.flatMap((item, index) => {
    const evidence = item.evidence === undefined ? "" : ` (evidence: ${item.evidence})`;
    const line = `${index + 1}. [${item.status}] ${item.content}${evidence}`;
    return item.flag === undefined ? [line] : [line, `   flagged: ${item.flag}`];
  });
}
