import type { CompactionMark, SessionScan } from "./scan-session.js";

/** What became of a message entry, as the page marks it. */
export interface EntryStatus {
  /** The compaction that summarised it (its turn is no longer sent). */
  summarisedBy?: CompactionMark;
  /** The compaction that kept it verbatim (a copy of it follows that compaction). */
  keptBy?: CompactionMark;
  /** For a kept copy: the line of the message it copies. */
  copyOf?: number;
  /** It belongs to a turn that failed for good (replay leaves it out). */
  failed: boolean;
  /** The next request would carry it. */
  effective: boolean;
}

/**
 * The second pass's view of the first pass's findings, asked in file order: for each line, the
 * next compaction that took effect after it decides whether it was summarised or kept.
 */
export class EntryStatusTracker {
  private readonly applied: CompactionMark[];
  private next = 0;
  private readonly copyCursor = new Map<string, number>();
  private readonly originalLines = new Map<string, number[]>();

  constructor(
    private readonly scan: SessionScan,
    private readonly effectiveIds: ReadonlySet<string>,
  ) {
    this.applied = scan.compactions.filter((mark) => mark.status === "applied" || mark.status === "undone");
    for (const mark of this.applied) this.originalLines.set(mark.id, [...mark.keptOriginals.values()]);
  }

  /** Status of the message entry `id` at `line`; `keptBy` is the entry's own keptBy field. */
  statusOf(line: number, id: string, keptBy: string | undefined): EntryStatus {
    while (this.applied[this.next] !== undefined && (this.applied[this.next] as CompactionMark).line < line)
      this.next++;
    const later = this.applied[this.next];
    const status: EntryStatus = { failed: this.scan.failed(line), effective: this.effectiveIds.has(id) };
    if (later !== undefined && !status.failed) {
      if (later.keptOriginals.has(id)) status.keptBy = later;
      else status.summarisedBy = later;
    }
    if (keptBy !== undefined) {
      const index = this.copyCursor.get(keptBy) ?? 0;
      this.copyCursor.set(keptBy, index + 1);
      const original = this.originalLines.get(keptBy)?.[index];
      if (original !== undefined) status.copyOf = original;
    }
    return status;
  }
}
