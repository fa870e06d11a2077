import {
  buildCompactionRequest,
  type CompactionRequest,
  extractLedger,
  groupTurns,
  numberTurns,
  serializeTranscript,
} from "../compaction/index.js";
import type { CompactionLedger, EffectiveContext, FlaggedTodoItem } from "../core/index.js";
import { optional } from "../core/index.js";
import {
  blockParts,
  composeCompactionSummary,
  type EffectiveTurnNumbers,
  ledgerLines,
  PINNED_NOTES_HEADING,
  type SessionHeader,
  todoLines,
} from "../session/index.js";

/** The fixed heading of the earlier session's ledger in a handoff. */
export const HANDOFF_LEDGER_HEADING =
  "## Ledger of the earlier session (recorded by panto from its tool calls and results)";

/** The fixed heading of the earlier session's task list in a handoff. */
export const HANDOFF_TODO_HEADING =
  "## Task list of the earlier session (kept with the todo tool; call todo with it to keep it in force here)";

/** The headings a handoff draft is written under (assets/HANDOFF.md asks the model for them). */
export const HANDOFF_SECTIONS = [
  "## Where things stand",
  "## Decisions and their reasons",
  "## Files and commands that matter",
  "## Open problems",
] as const;

/** What a handoff is drafted from: the session now, as the next request would carry it. */
export interface HandoffSource {
  header: SessionHeader;
  path: string;
  /** The effective context, its block being the compaction in effect (pins left out: they come apart). */
  context: EffectiveContext;
  /** The compaction in effect, whose ledger the handoff's carries on. */
  previousLedger?: CompactionLedger;
  /** The turn numbers of the context's user messages, when known. */
  numbering?: EffectiveTurnNumbers;
  pins: readonly string[];
  /** The task list in force, with its flags. */
  todos?: readonly FlaggedTodoItem[];
}

/**
 * The request that asks a model for a handoff's sections: the handoff prompt (assets/HANDOFF.md)
 * as the system prompt with the goal under the additional-instructions heading, and the session
 * as a transcript in the same envelope a compaction uses (the compaction in effect as the previous
 * summary). No tools; nothing of it is written anywhere.
 */
export function handoffRequest(
  source: HandoffSource,
  goal: string,
  handoffPrompt: string,
): CompactionRequest {
  return buildCompactionRequest({
    systemPrompt: handoffPrompt,
    instructions: `The goal of the new session: ${goal.trim() === "" ? "carry on with the work as it stands" : goal.trim()}`,
    transcript: serializeTranscript(source.context.messages),
    ...optional("previousSummary", source.context.compaction?.summary),
  });
}

/**
 * The ledger of the whole session: the compaction in effect's (which carries the ones before it)
 * with the context's own turns' files and commands on top.
 */
export function handoffLedger(source: HandoffSource): CompactionLedger | undefined {
  const turns = groupTurns(source.context.messages);
  const numbers = source.numbering === undefined ? [] : numberTurns(turns, source.numbering.numbers);
  return extractLedger(turns, numbers, source.previousLedger);
}

/**
 * The first prompt of the new session: a heading with the goal, where it comes from (and that
 * `recall` reaches the earlier session), then `body` (the model's sections, or the user's own
 * text), then the pinned notes, the task list and the ledger, verbatim, under fixed headings.
 * Deterministic.
 */
export function composeHandoff(source: HandoffSource, goal: string, body: string): string {
  const wanted = goal.trim() === "" ? "carry on with the work as it stands" : goal.trim();
  const created = source.header.created.slice(0, 10);
  const intro = [
    `# Handoff: ${wanted}`,
    "",
    `This session takes over from session ${source.header.id} (started ${created}). Its whole history stays on record: the \`recall\` tool searches it too, and reads its turns back with {"session": "parent"}.`,
  ].join("\n");
  const ledger = ledgerLines(handoffLedger(source));
  const pins = source.pins.map((pin, index) => `${index + 1}. ${pin}`);
  const todos = todoLines(source.todos ?? []);
  return [
    intro,
    `## Goal\n${wanted}`,
    body.trim(),
    pins.length === 0 ? "" : [PINNED_NOTES_HEADING, ...pins].join("\n"),
    todos.length === 0 ? "" : [HANDOFF_TODO_HEADING, ...todos].join("\n"),
    ledger.length === 0 ? "" : [HANDOFF_LEDGER_HEADING, ...ledger].join("\n"),
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** The body a user writes a handoff in (`/handoff --edit`): the section headings, each to fill in. */
export function handoffTemplate(): string {
  return HANDOFF_SECTIONS.map((heading) => `${heading}\n(write here, or delete the section)`).join("\n\n");
}

/** The context a handoff is drafted from, the block composed as the summariser sees it (no pins). */
export function handoffContext(
  context: EffectiveContext,
  base: Parameters<typeof blockParts>[0] | undefined,
) {
  if (base === undefined) return { messages: context.messages };
  return {
    compaction: { type: "compaction" as const, summary: composeCompactionSummary(blockParts(base)) },
    messages: context.messages,
  };
}
