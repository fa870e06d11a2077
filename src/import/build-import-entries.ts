import { estimateMessageTokens, estimateTokens } from "../compaction/index.js";
import type { Message } from "../core/index.js";
import { type CompactionEntry, type MessageEntry, newEntryId, type SessionEntry } from "../session/index.js";
import type { ParsedSource } from "./import-types.js";
import { type MergedItem, mergeMessages } from "./merge-messages.js";
import { type PairingCounts, pairToolResults } from "./pair-tool-results.js";

/** What the import made of a source, by kind (the report's figures). */
export interface ImportCounts extends PairingCounts {
  turns: number;
  messages: { user: number; assistant: number; tool: number };
  toolCalls: number;
  toolResults: number;
  thinking: number;
  images: number;
  compactions: number;
  keptCopies: number;
  /** Answers carrying the source's recorded usage. */
  answersWithUsage: number;
  notes: number;
  /** Notes of entry types the import does not know, by type. */
  unknown: Record<string, number>;
}

/** One message of the context since the latest compaction, with its turn number. */
interface Placed {
  message: Message;
  turn: number;
  sourceIds: readonly string[];
}

const IMAGE_PLACEHOLDER = /^\[image \(/;

/**
 * Turns a parsed source into panto entries: one message entry per message (source parts of one
 * answer merged, tool calls paired with results), one compaction entry per compaction of the
 * source, written as panto writes its own (the entry, then copies of the turns it keeps), and a
 * note for everything else. The turns before a compaction stay in the file for recall.
 */
export function buildImportEntries(source: ParsedSource): { entries: SessionEntry[]; counts: ImportCounts } {
  const paired = pairToolResults(mergeMessages(source.items));
  const builder = new EntryBuilder(source.format, paired.counts);
  // Whether the message after each item is not a user message: a compaction there interrupted a turn.
  const midTurn = new Array<boolean>(paired.items.length).fill(false);
  let nextRole: string | undefined;
  for (let index = paired.items.length - 1; index >= 0; index--) {
    midTurn[index] = nextRole !== undefined && nextRole !== "user";
    const item = paired.items[index];
    if (item?.kind === "message") nextRole = item.message.role;
  }
  paired.items.forEach((item, index) => {
    builder.add(item, midTurn[index] === true);
  });
  return { entries: builder.entries, counts: builder.counts };
}

class EntryBuilder {
  readonly entries: SessionEntry[] = [];
  readonly counts: ImportCounts;
  readonly #ids = new Set<string>();
  #turn = 0;
  #segment: Placed[] = [];
  #summaryTokens = 0;

  constructor(
    private readonly format: string,
    pairing: PairingCounts,
  ) {
    this.counts = {
      ...pairing,
      turns: 0,
      messages: { user: 0, assistant: 0, tool: 0 },
      toolCalls: 0,
      toolResults: 0,
      thinking: 0,
      images: 0,
      compactions: 0,
      keptCopies: 0,
      answersWithUsage: 0,
      notes: 0,
      unknown: {},
    };
  }

  /** `midTurn`: the next message is no user message (the item interrupted a turn). */
  add(item: MergedItem, midTurn: boolean): void {
    if (item.kind === "note") {
      this.counts.notes++;
      if (item.unknown) this.counts.unknown[item.type] = (this.counts.unknown[item.type] ?? 0) + 1;
      this.entries.push({ type: "note", ...this.stamp(), kind: item.type, text: item.text, line: item.line });
      return;
    }
    if (item.kind === "message") {
      this.message(item.message, item.sourceIds);
      return;
    }
    this.compaction(item.summary, item.trigger, this.keptPart(item.keepFrom, midTurn));
  }

  private stamp(): { id: string; ts: string } {
    let id = newEntryId();
    while (this.#ids.has(id)) id = newEntryId();
    this.#ids.add(id);
    return { id, ts: new Date().toISOString() };
  }

  private message(message: Message, sourceIds: readonly string[]): void {
    if (message.role === "user") this.#turn++;
    this.tally(message);
    this.entries.push({ type: "message", ...this.stamp(), message });
    this.#segment.push({ message, turn: this.#turn, sourceIds });
  }

  private tally(message: Message): void {
    this.counts.messages[message.role]++;
    if (message.role === "user") this.counts.turns++;
    if (message.role === "assistant" && message.usage !== undefined) this.counts.answersWithUsage++;
    for (const block of message.content) {
      if (block.type === "tool-call") this.counts.toolCalls++;
      if (block.type === "thinking") this.counts.thinking++;
      if (block.type === "tool-result") {
        this.counts.toolResults++;
        for (const inner of block.content)
          if (inner.type === "text" && IMAGE_PLACEHOLDER.test(inner.text)) this.counts.images++;
      }
      if (block.type === "text" && IMAGE_PLACEHOLDER.test(block.text)) this.counts.images++;
    }
  }

  /**
   * Where the kept part starts (index in the segment): pi names the first kept entry; otherwise only
   * a turn the compaction interrupted is kept (the source went on with it after the summary). Never
   * a part of a turn (spec rule 1): the start moves back to the turn's user message.
   */
  private keptPart(keepFrom: string | undefined, midTurn: boolean): number {
    const segment = this.#segment;
    let start = segment.length;
    if (keepFrom !== undefined) {
      const found = segment.findIndex((placed) => placed.sourceIds.includes(keepFrom));
      if (found !== -1) start = found;
    }
    if (midTurn) start = Math.min(start, segment.length - 1);
    while (start > 0 && start < segment.length && segment[start]?.message.role !== "user") start--;
    return Math.max(0, start);
  }

  private compaction(summary: string, trigger: CompactionEntry["trigger"], start: number): void {
    const summarised = this.#segment.slice(0, start);
    const kept = this.#segment.slice(start);
    const keptTurns = [...new Set(kept.map((placed) => placed.turn).filter((turn) => turn > 0))];
    const through = keptTurns[0] === undefined ? this.#turn : keptTurns[0] - 1;
    const text = summary.trim() === "" ? "(the imported session's compaction recorded no summary)" : summary;
    const tokensOf = (list: readonly Placed[]): number =>
      list.reduce((sum, placed) => sum + estimateMessageTokens(placed.message), 0);
    const compaction: CompactionEntry = {
      type: "compaction",
      ...this.stamp(),
      summary: text,
      trigger,
      model: `import/${this.format}`,
      fellBack: false,
      turnsSummarised: through,
      turnsKept: keptTurns.length,
      tokensSummarised: tokensOf(summarised) + this.#summaryTokens,
      tokensKept: tokensOf(kept),
      summaryTokens: estimateTokens(text),
      sizeSources: { usage: 0, estimate: through + keptTurns.length },
      turns: { through, kept: keptTurns, total: this.#turn },
      keptMessages: kept.length,
    };
    const copies: MessageEntry[] = kept.map((placed) => ({
      type: "message",
      ...this.stamp(),
      message: structuredClone(placed.message),
      keptBy: compaction.id,
    }));
    this.entries.push(compaction, ...copies);
    this.counts.compactions++;
    this.counts.keptCopies += copies.length;
    this.#summaryTokens = compaction.summaryTokens;
    this.#segment = kept;
  }
}
