import type { RewindEntry, SessionEntry } from "./session-entries.js";

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
 * The ranges rewinds take out of the context, latest first. A rewind counts unless a later one took
 * it out (then what it dropped comes back, as of the later one's point). A rewind whose
 * firstEntryId is not found before it is ignored and reported in `problems`. Window entries are
 * never taken out (see `rewoundMask`).
 */
export function rewoundRanges(entries: readonly SessionEntry[], problems: string[] = []): RewoundRange[] {
  const points = rewindPoints(entries);
  const ranges: RewoundRange[] = [];
  let coveredFrom = Number.POSITIVE_INFINITY;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index] as SessionEntry;
    if (index >= coveredFrom || !rewindsConversation(entry)) continue;
    const from = points.get(index);
    if (from === undefined) {
      problems.push(
        `rewind entry ${entry.id} names entry ${entry.firstEntryId}, which is not before it in the session; ignored`,
      );
      continue;
    }
    ranges.push({ rewind: entry, from, to: index });
    coveredFrom = from;
  }
  return ranges;
}

/**
 * For each rewind entry's index, the index of its point: the latest entry before it with the id it
 * names (ids are unique among the entries in memory when written, so the latest one is the one meant).
 */
function rewindPoints(entries: readonly SessionEntry[]): Map<number, number> {
  const latest = new Map<string, number>();
  const points = new Map<number, number>();
  entries.forEach((entry, index) => {
    if (entry.type === "rewind") {
      const point = latest.get(entry.firstEntryId);
      if (point !== undefined) points.set(index, point);
    }
    latest.set(entry.id, index);
  });
  return points;
}

/**
 * For each entry, whether a rewind in effect takes it out of the context. Window entries stay: a
 * learned context window is a fact about the model, not part of the conversation.
 */
export function rewoundMask(entries: readonly SessionEntry[], problems: string[] = []): boolean[] {
  const mask = entries.map(() => false);
  for (const range of rewoundRanges(entries, problems)) mask.fill(true, range.from, range.to + 1);
  entries.forEach((entry, index) => {
    if (entry.type === "window") mask[index] = false;
  });
  return mask;
}

/** The entries as if every rewound range had never been written: what replay works from. */
export function withoutRewound(entries: readonly SessionEntry[], problems: string[] = []): SessionEntry[] {
  if (!entries.some(rewindsConversation)) return entries.slice();
  const mask = rewoundMask(entries, problems);
  return entries.filter((_, index) => !mask[index]);
}
