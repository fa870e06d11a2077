import type { EffectiveContext } from "../core/index.js";
import { blockParts, composeCompactionSummary } from "./compose-compaction-summary.js";
import { pinsInForce } from "./pins-in-force.js";
import { repairToolPairing } from "./repair-tool-pairing.js";
import type { CompactionEntry, MessageEntry, SessionEntry } from "./session-entries.js";
import { foldEntries } from "./session-model.js";

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
}

/**
 * The latest compaction entry in force and the message entries after it that replay keeps (failed
 * and rewound turns, and copies of cut-off or undone compactions, left out), as the session model
 * defines them (src/session/session-model.ts).
 */
export function survivingEntries(all: readonly SessionEntry[]): SurvivingEntries {
  const view = foldEntries(all).view();
  const messages = all.filter(
    (entry, index): entry is MessageEntry => entry.type === "message" && view.replays(index, entry.keptBy),
  );
  const base = view.base === undefined ? undefined : all[view.base.position];
  const problems = [...view.problems];
  return base?.type === "compaction" ? { compaction: base, messages, problems } : { messages, problems };
}

/**
 * Replays session entries to the effective context (spec rule 3): the latest compaction block, then
 * every message after it except those of failed turns (DESIGN "Turns") and of rewound ones (a
 * rewind entry drops every entry from its point through itself), with tool-call/result
 * pairing repaired in memory. Older compactions and everything before them contribute nothing.
 * The block carries the summary, the recall pointer, the facts restored into it and the pinned
 * notes in force; with
 * pinned notes and no compaction yet, a block holding just the notes leads the context.
 */
export function replayEntries(entries: readonly SessionEntry[]): ReplayResult {
  const surviving = survivingEntries(entries);
  const pairing = repairToolPairing(surviving.messages.map((entry) => entry.message));
  const messages = pairing.messages;
  const problems = [...surviving.problems, ...pairing.problems];
  const pins = pinsInForce(entries).map((pin) => pin.text);
  const base = surviving.compaction;
  if (base === undefined && pins.length === 0) return { context: { messages }, problems };
  const summary = composeCompactionSummary({
    ...(base === undefined ? { summary: "" } : blockParts(base)),
    pins,
  });
  return { context: { compaction: { type: "compaction", summary }, messages }, problems };
}
