import type { EffectiveContext, Message, ToolResultBlock } from "../core/index.js";
import { clearedResults, stubCleared } from "./clearings-in-force.js";
import { blockParts, composeCompactionSummary } from "./compose-compaction-summary.js";
import { pinsInForce } from "./pins-in-force.js";
import { repairToolPairing } from "./repair-tool-pairing.js";
import type { CompactionEntry, MessageEntry, SessionEntry } from "./session-entries.js";
import { foldEntries, type SessionView } from "./session-model.js";

/** The effective context replayed from entries, and everything replay had to ignore or repair. */
export interface ReplayResult {
  context: EffectiveContext;
  problems: string[];
}

/** The message entries that still count after the latest compaction, failed turns removed. */
export interface SurvivingEntries {
  compaction?: CompactionEntry;
  messages: MessageEntry[];
  problems: string[];
  /** Each message's position among the entries given (parallel to `messages`). */
  positions: number[];
  /** What the session model made of the entries. */
  view: SessionView;
}

/**
 * The latest compaction entry in force and the message entries after it that replay keeps (failed
 * and rewound turns, and copies of cut-off or undone compactions, left out), as the session model
 * defines them (src/session/session-model.ts).
 */
export function survivingEntries(all: readonly SessionEntry[]): SurvivingEntries {
  const view = foldEntries(all).view();
  const messages: MessageEntry[] = [];
  const positions: number[] = [];
  all.forEach((entry, index) => {
    if (entry.type !== "message" || !view.replays(index, entry.keptBy)) return;
    messages.push(entry);
    positions.push(index);
  });
  const base = view.base === undefined ? undefined : all[view.base.position];
  const problems = [...view.problems];
  const found = { messages, problems, positions, view };
  return base?.type === "compaction" ? { compaction: base, ...found } : found;
}

/**
 * The surviving messages as the context holds them: each tool result a clearing in force names
 * (the session model says which) holds its stub instead of its content; `uncleared` keeps them whole.
 */
function contextMessages(
  all: readonly SessionEntry[],
  surviving: SurvivingEntries,
  uncleared: boolean,
): { messages: Message[]; stubbed: ReadonlyMap<string, string> } {
  const messages = surviving.messages.map((entry) => entry.message);
  const stubbed = new Map<string, string>();
  if (uncleared || surviving.view.clearings.length === 0) return { messages, stubbed };
  const stubs = clearedResults(all, surviving.compaction);
  const stubbedMessages = messages.map((message, index) =>
    stubCleared(message, (toolCallId) => {
      const position = surviving.positions[index] as number;
      const clearing = surviving.view.clearedBy(position, toolCallId, surviving.messages[index]?.keptBy);
      const stub = clearing === undefined ? undefined : stubs.get(clearing)?.get(toolCallId);
      if (stub !== undefined && clearing !== undefined) stubbed.set(toolCallId, clearing);
      return stub;
    }),
  );
  return { messages: stubbedMessages, stubbed };
}

/**
 * The settled points of the context (see `EffectiveContext.settledToolCallIds`): of the latest two
 * clearings with a stub in `messages`, the latest result each stubbed, in order.
 */
function settledPoints(messages: readonly Message[], stubbed: ReadonlyMap<string, string>): string[] {
  const points: string[] = [];
  const seen = new Set<string>();
  for (let index = messages.length - 1; index >= 0 && points.length < 2; index--) {
    const message = messages[index] as Message;
    if (message.role !== "tool") continue;
    for (let block = message.content.length - 1; block >= 0 && points.length < 2; block--) {
      const id = (message.content[block] as ToolResultBlock).toolCallId;
      const clearing = stubbed.get(id);
      if (clearing === undefined || seen.has(clearing)) continue;
      seen.add(clearing);
      points.unshift(id);
    }
  }
  return points;
}

/**
 * Replays session entries to the effective context (spec rule 3): the latest compaction block, then
 * every message after it except those of failed turns (DESIGN "Turns") and of rewound ones (a
 * rewind entry drops every entry from its point through itself), with tool-call/result
 * pairing repaired in memory, and the tool results clearings in force name replaced by their stubs
 * (unless `uncleared`: what compaction's ledger and kept copies read). Older compactions and everything before them contribute nothing.
 * The block carries the summary, the recall pointer, the facts restored into it and the pinned
 * notes in force; with
 * pinned notes and no compaction yet, a block holding just the notes leads the context.
 */
export function replayEntries(
  entries: readonly SessionEntry[],
  options: { uncleared?: boolean } = {},
): ReplayResult {
  const surviving = survivingEntries(entries);
  const { messages: replayed, stubbed } = contextMessages(entries, surviving, options.uncleared === true);
  const pairing = repairToolPairing(replayed);
  const messages = pairing.messages;
  const settled = settledPoints(messages, stubbed);
  const settledPart = settled.length === 0 ? {} : { settledToolCallIds: settled };
  const problems = [...surviving.problems, ...pairing.problems];
  const pins = pinsInForce(entries).map((pin) => pin.text);
  const base = surviving.compaction;
  if (base === undefined && pins.length === 0) return { context: { messages, ...settledPart }, problems };
  const summary = composeCompactionSummary({
    ...(base === undefined ? { summary: "" } : blockParts(base)),
    pins,
  });
  return { context: { compaction: { type: "compaction", summary }, messages, ...settledPart }, problems };
}
