import type { CompactionEntry, SessionEntry } from "./session-entries.js";

/**
 * Counts kept copies per compaction id, and notes the compactions undone by `uncompact` entries,
 * while entries are visited from the end of the file backward, so whether a compaction is where
 * replay starts is known the moment it is reached.
 */
export class KeptCopyCounter {
  readonly #counts = new Map<string, number>();
  readonly #undone = new Set<string>();

  /** Counts `entry` if it is a kept copy or an undo; call for every entry after the compaction in question. */
  see(entry: SessionEntry): void {
    if (entry.type === "uncompact") this.#undone.add(entry.compactionId);
    if (entry.type !== "message" || entry.keptBy === undefined) return;
    this.#counts.set(entry.keptBy, (this.#counts.get(entry.keptBy) ?? 0) + 1);
  }

  /** Whether an `uncompact` entry seen so far undoes this compaction. */
  isUndone(compaction: CompactionEntry): boolean {
    return this.#undone.has(compaction.id);
  }

  /** Whether replay starts at this compaction: all its copies landed and no later entry undid it. */
  startsReplay(compaction: CompactionEntry): boolean {
    return this.isComplete(compaction) && !this.isUndone(compaction);
  }

  /** Copies of this compaction seen so far. */
  copiesOf(compaction: CompactionEntry): number {
    return this.#counts.get(compaction.id) ?? 0;
  }

  /**
   * Whether every copy the compaction announced was seen. The entry and its copies are written in
   * one write call, but a crash (SIGKILL during a large write, power loss) can still cut that write
   * short; such a compaction would replay with turns missing, so it does not count.
   */
  isComplete(compaction: CompactionEntry): boolean {
    return compaction.keptMessages === undefined || this.copiesOf(compaction) >= compaction.keptMessages;
  }
}

/** The warning for a compaction replay ignores because its write was cut off. */
export function incompleteCompactionProblem(
  compaction: Pick<CompactionEntry, "id" | "keptMessages">,
  copies: number,
): string {
  return `compaction entry ${compaction.id} announces ${compaction.keptMessages} kept messages but only ${copies} follow it (its write was cut off, probably by a crash); it is ignored and the context is replayed as it was before it`;
}
