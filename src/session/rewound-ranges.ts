import type { RewindEntry, SessionEntry } from "./session-entries.js";
import { foldEntries } from "./session-model.js";

/** The entries one rewind takes out of the context: indexes `from` through `to` (the rewind entry). */
export interface RewoundRange {
  rewind: RewindEntry;
  from: number;
  to: number;
}

/** Whether a rewind entry changes the conversation (a code-only rewind leaves it as it is). */
export function rewindsConversation(entry: SessionEntry): entry is RewindEntry {
  return entry.type === "rewind" && entry.scope !== "code";
}

/**
 * The ranges rewinds take out of the context, latest first, by the session model's rule
 * (src/session/session-model.ts): a rewind counts unless a later one took it out (then what it
 * dropped comes back, as of the later one's point); one whose firstEntryId is not found before it
 * is ignored and reported in `problems`. Window entries inside a range are never taken out (see
 * `rewoundMask`).
 */
export function rewoundRanges(entries: readonly SessionEntry[], problems: string[] = []): RewoundRange[] {
  const view = foldEntries(entries).view();
  problems.push(...view.rewindProblems);
  return view.rewoundSpans.map((span) => ({ rewind: entries[span.to] as RewindEntry, ...span }));
}

/**
 * For each entry, whether a rewind in effect takes it out of the context. Window entries stay: a
 * learned context window is a fact about the model, not part of the conversation.
 */
export function rewoundMask(entries: readonly SessionEntry[], problems: string[] = []): boolean[] {
  const view = foldEntries(entries).view();
  problems.push(...view.rewindProblems);
  return entries.map((_, index) => view.rewound(index));
}

/** The entries as if every rewound range had never been written. */
export function withoutRewound(entries: readonly SessionEntry[], problems: string[] = []): SessionEntry[] {
  if (!entries.some(rewindsConversation)) return entries.slice();
  const mask = rewoundMask(entries, problems);
  return entries.filter((_, index) => !mask[index]);
}
