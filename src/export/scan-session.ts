import { estimateMessageTokens } from "../compaction/index.js";
import {
  type CompactionEntry,
  ENTRY_TYPES,
  entryShape,
  type MessageEntry,
  type SessionEntry,
  type SessionHeader,
  SessionModel,
  type SessionView,
} from "../session/index.js";
import { compactionExtras, undoneCompactionId, windowsOfEntry } from "./future-entries.js";
import { sandboxLabel } from "./sandbox-label.js";
import { type EntryFields, readSessionLines, type SessionLine } from "./session-lines.js";
import { TodoChanges } from "./todo-changes.js";

/** An accepted `todo` call, as the timeline lists it: its figures and where it is. */
export interface TodoMark {
  /** The line of the tool message holding its result, where the page shows the list. */
  line: number;
  callId: string;
  /** 1-based, in file order. */
  ordinal: number;
  completed: number;
  total: number;
  flagged: number;
  /** How many request points come before it. */
  afterRequest: number;
}

/** What became of a clearing: in force, taken back by `/unclear`, taken back by a rewind, or summarised. */
export type ClearingStatus = "in force" | "taken back" | "rewound" | "compacted";

/** A clearing entry (issue 34) as the entry list shows it: its figures and whether it is in force. */
export interface ClearingMark {
  id: string;
  line: number;
  /** 1-based, in file order. */
  ordinal: number;
  /** The size of each result it cleared (panto's estimate when cleared), by call id. */
  resultTokens: Map<string, number>;
  /** The request's size before and after, when the entry says. */
  tokensBefore?: number;
  tokensAfter?: number;
  reason?: string;
  status: ClearingStatus;
  /** The line of the `unclear` entry that took it back (status "taken back"). */
  takenBackAt?: number;
}

/** The context size of one model request (one assistant message, kept copies excluded). */
export interface RequestPoint {
  tokens: number;
  /** True when the provider reported no usage and the size is the local estimate. */
  estimated: boolean;
  line: number;
}

export type CompactionStatus = "applied" | "incomplete" | "undone" | "failed";

/** A compaction (or a failed one) as the timeline and the entry list show it. */
export interface CompactionMark {
  id: string;
  line: number;
  /** 1-based, in file order, failed ones included. */
  ordinal: number;
  trigger: string;
  status: CompactionStatus;
  /** Context size before and after (tokens), when known. */
  before?: number;
  after?: number;
  /** How many request points come before it. */
  afterRequest: number;
  /** Line of the first entry it replaced (summarised), when any. */
  firstReplacedLine?: number;
  /** Ids (and lines) of the message entries before it that it kept verbatim, in the order of their copies. */
  keptOriginals: Map<string, number>;
  /** The line of each kept original's copy, by the original's line. */
  copyLines?: Map<number, number>;
}

export interface Totals {
  requests: number;
  requestsWithUsage: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Summary requests: one per compaction (or per chunk), and every failed attempt. */
  compactionCalls: number;
}

/** What the first pass learns: only small numbers and ids, never entry bodies. */
export interface SessionScan {
  header: SessionHeader;
  requests: RequestPoint[];
  compactions: CompactionMark[];
  /**
   * The learned context window of the model that answered last (else the latest one learned), when
   * the session records one: drawn as a line on the timeline.
   */
  window?: number;
  totals: Totals;
  /** Whether the entry on `line` belongs to a turn that failed for good (the session model's rule). */
  failed: (line: number) => boolean;
  /** Whether a clearing in force holds a stub for the result of call `toolCallId` in the message on `line`. */
  cleared: (line: number, toolCallId: string) => boolean;
  /**
   * The clearing in force that holds a stub for the result of call `toolCallId` in the message on
   * `line`, by the session model (`SessionView.clearedBy`). `keptBy`: the message's own keptBy field.
   * An original that the compaction in force kept verbatim answers for its copy (it is the one shown).
   */
  clearingOf: (line: number, toolCallId: string, keptBy?: string) => ClearingMark | undefined;
  /** Every clearing entry, in file order. */
  clearings: ClearingMark[];
  /** The sandboxes the session's runs used, in words, each once, in the order first used. */
  sandboxes: string[];
  entries: number;
  invalidLines: number[];
  /** The line of each pin entry, by its id, so an unpin can link to the note it ends. */
  pinLines: Map<string, number>;
  /** Each change of the task list (an accepted todo call), in file order. */
  todos: TodoMark[];
}

interface Pending {
  mark: CompactionMark;
  entry: CompactionEntry;
  snapshot: Array<{ id: string; line: number }>;
  copies: number;
  /** The lines of its kept copies, in order. */
  copyLines: number[];
}

/** The first pass, as a state machine fed one line at a time. */
class Scanner {
  readonly requests: RequestPoint[] = [];
  readonly compactions: CompactionMark[] = [];
  /** What the entries mean (turns, rewinds, the compaction in force, failed turns), by line. */
  readonly model = new SessionModel();
  readonly invalidLines: number[] = [];
  readonly sandboxes: string[] = [];
  readonly totals: Totals = {
    requests: 0,
    requestsWithUsage: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    compactionCalls: 0,
  };
  readonly pinLines = new Map<string, number>();
  readonly todos: TodoMark[] = [];
  readonly #todoChanges = new TodoChanges();
  /** Windows learned so far by "provider/model", and the latest one learned for any model. */
  private readonly windows = new Map<string, number>();
  private latestWindow: number | undefined;
  /** "provider/model" of the latest assistant message. */
  private lastModel: string | undefined;
  entries = 0;
  /** Message entries that the next request would carry (ids and lines only). */
  private replaying: Array<{ id: string; line: number }> = [];
  private pending: Pending | undefined;
  private contextEstimate = 0;
  private readonly byId = new Map<string, CompactionMark>();
  readonly clearings: ClearingMark[] = [];
  /** The line of the latest `unclear` entry naming each clearing, by the clearing's id. */
  readonly unclears = new Map<string, number>();

  see(item: SessionLine): void {
    this.entries++;
    if (item.kind === "invalid") {
      this.invalidLines.push(item.line);
      return;
    }
    const fields = (item.kind === "entry" ? item.entry : item.fields) as unknown as EntryFields;
    // An entry of a type this panto does not know is no part of the session's meaning.
    if (ENTRY_TYPES.has(fields.type))
      this.model.apply(entryShape(fields as unknown as SessionEntry), item.line);
    const isCopy = item.kind === "entry" && item.entry.type === "message" && item.entry.keptBy !== undefined;
    if (this.pending !== undefined && !(isCopy && (fields.keptBy as string) === this.pending.entry.id))
      this.settle();
    for (const [model, window] of windowsOfEntry(fields)) {
      this.windows.set(model, window);
      this.latestWindow = window;
    }
    if (item.kind === "other") this.seeOther(item.line, item.fields);
    else if (item.entry.type === "message") this.seeMessage(item.line, item.entry);
    else if (item.entry.type === "compaction") this.seeCompaction(item.line, item.entry);
    else this.seeFailedTurn(item.entry.firstEntryId);
  }

  finish(): void {
    if (this.pending !== undefined) this.settle();
  }

  get window(): number | undefined {
    return (this.lastModel === undefined ? undefined : this.windows.get(this.lastModel)) ?? this.latestWindow;
  }

  private seeMessage(line: number, entry: MessageEntry): void {
    const { message } = entry;
    if (entry.keptBy !== undefined && this.pending !== undefined) {
      this.pending.copies++;
      this.pending.copyLines.push(line);
    }
    if (entry.keptBy === undefined)
      for (const { callId, ordinal, completed, total, flagged } of this.#todoChanges.see(message))
        this.todos.push({
          line,
          callId,
          ordinal,
          completed,
          total,
          flagged,
          afterRequest: this.requests.length,
        });
    if (message.role === "assistant" && entry.keptBy === undefined) {
      this.lastModel = `${message.provider}/${message.model}`;
      const usage = message.usage;
      this.requests.push({ tokens: usage?.promptTokens ?? this.contextEstimate, estimated: !usage, line });
      this.totals.requests++;
      if (usage !== undefined) {
        this.totals.requestsWithUsage++;
        this.totals.inputTokens += usage.promptTokens;
        this.totals.outputTokens += usage.outputTokens;
        this.totals.cacheReadTokens += usage.cacheReadTokens ?? 0;
        this.totals.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
        this.contextEstimate = usage.promptTokens + usage.resentOutputTokens;
      } else this.contextEstimate += estimateMessageTokens(message);
    } else this.contextEstimate += estimateMessageTokens(message);
    this.replaying.push({ id: entry.id, line });
  }

  private seeCompaction(line: number, entry: CompactionEntry): void {
    const extras = compactionExtras(entry as unknown as EntryFields);
    // Sizes on the scale of the requests around it: the provider's count of the rejected request, else
    // the running size (latest usage plus estimates since); the drop is what the summary replaced.
    const local = entry.tokensSummarised + entry.tokensKept;
    const before = extras.requestTokens ?? (this.requests.length > 0 ? this.contextEstimate : local);
    const after = Math.max(
      entry.summaryTokens + entry.tokensKept,
      before - entry.tokensSummarised + entry.summaryTokens,
    );
    const mark: CompactionMark = {
      id: entry.id,
      line,
      ordinal: this.compactions.length + 1,
      trigger: entry.trigger,
      status: "applied",
      before,
      after,
      afterRequest: this.requests.length,
      keptOriginals: new Map(),
    };
    this.add(mark);
    this.totals.compactionCalls += entry.chunks ?? 1;
    this.pending = { mark, entry, snapshot: this.replaying, copies: 0, copyLines: [] };
    this.replaying = [];
    this.contextEstimate = after;
  }

  /** After a compaction's copies: which originals it kept, or that it was cut off. */
  private settle(): void {
    const pending = this.pending as Pending;
    this.pending = undefined;
    const expected = pending.entry.keptMessages ?? pending.copies;
    if (pending.copies < expected) {
      pending.mark.status = "incomplete";
      this.replaying = [...pending.snapshot, ...this.replaying];
      return;
    }
    const kept = pending.snapshot.slice(pending.snapshot.length - pending.copies);
    pending.mark.copyLines = new Map();
    for (const [index, original] of kept.entries()) {
      pending.mark.keptOriginals.set(original.id, original.line);
      const copyLine = pending.copyLines[index];
      if (copyLine !== undefined) pending.mark.copyLines.set(original.line, copyLine);
    }
    const first = pending.snapshot.find((original) => !pending.mark.keptOriginals.has(original.id));
    if (first !== undefined) pending.mark.firstReplacedLine = first.line;
  }

  /** A failed turn's messages are no longer carried by the next request (for the size estimate). */
  private seeFailedTurn(firstEntryId: string): void {
    const start = this.replaying.findIndex((item) => item.id === firstEntryId);
    if (start !== -1) this.replaying.splice(start);
  }

  private seeOther(line: number, fields: EntryFields): void {
    const sandbox = sandboxLabel(fields);
    if (sandbox !== undefined && !this.sandboxes.includes(sandbox)) this.sandboxes.push(sandbox);
    if (fields.type === "pin" && typeof fields.id === "string") this.pinLines.set(fields.id, line);
    if (fields.type === "compaction-failed") {
      const attempts = Array.isArray(fields.attempts) ? fields.attempts.length : 1;
      this.totals.compactionCalls += attempts;
      this.add({
        id: typeof fields.id === "string" ? fields.id : `line-${line}`,
        line,
        ordinal: this.compactions.length + 1,
        trigger: typeof fields.trigger === "string" ? fields.trigger : "unknown",
        status: "failed",
        afterRequest: this.requests.length,
        keptOriginals: new Map(),
      });
    }
    if (fields.type === "clearing" && typeof fields.id === "string") this.seeClearing(line, fields);
    if (fields.type === "unclear" && typeof fields.clearingId === "string")
      this.unclears.set(fields.clearingId, line);
    const undone = undoneCompactionId(fields);
    const target = undone === undefined ? undefined : this.byId.get(undone);
    if (target !== undefined) target.status = "undone";
  }

  /** A clearing's figures: ids and numbers only (its stubs stay in the file). */
  private seeClearing(line: number, fields: EntryFields): void {
    const resultTokens = new Map<string, number>();
    for (const result of Array.isArray(fields.results) ? (fields.results as unknown[]) : []) {
      const { toolCallId, tokens } = (result ?? {}) as { toolCallId?: unknown; tokens?: unknown };
      if (typeof toolCallId === "string")
        resultTokens.set(toolCallId, typeof tokens === "number" ? tokens : 0);
    }
    const mark: ClearingMark = {
      id: fields.id as string,
      line,
      ordinal: this.clearings.length + 1,
      resultTokens,
      status: "in force",
    };
    if (typeof fields.tokensBefore === "number") mark.tokensBefore = fields.tokensBefore;
    if (typeof fields.tokensAfter === "number") mark.tokensAfter = fields.tokensAfter;
    if (typeof fields.reason === "string") mark.reason = fields.reason;
    this.clearings.push(mark);
  }

  private add(mark: CompactionMark): void {
    this.compactions.push(mark);
    this.byId.set(mark.id, mark);
  }
}

/**
 * Each clearing's status by the session model's view (the clearings in force, carried ones
 * included), then why a clearing out of force is out: an `unclear`, a rewind, or a compaction.
 */
function settleClearings(scanner: Scanner, view: SessionView): Map<string, ClearingMark> {
  const inForce = new Set(view.clearings);
  const byId = new Map<string, ClearingMark>();
  for (const mark of scanner.clearings) {
    byId.set(mark.id, mark);
    const undoneAt = scanner.unclears.get(mark.id);
    if (inForce.has(mark.id)) mark.status = "in force";
    else if (undoneAt !== undefined && !view.rewound(undoneAt)) {
      mark.status = "taken back";
      mark.takenBackAt = undoneAt;
    } else if (view.rewound(mark.line)) mark.status = "rewound";
    else mark.status = "compacted";
  }
  return byId;
}

/** The first pass over a session file: request sizes, compactions, totals. Memory: small numbers only. */
export async function scanSession(path: string): Promise<SessionScan> {
  const scanner = new Scanner();
  let header: SessionHeader | undefined;
  for await (const item of readSessionLines(path)) {
    if ("header" in item) header = item.header;
    else scanner.see(item);
  }
  scanner.finish();
  const view = scanner.model.view();
  // The compaction in force stands, whatever undid it in a range a rewind took back since.
  const inForce = scanner.compactions.find((mark) => mark.line === view.base?.position);
  if (inForce !== undefined) inForce.status = "applied";
  const clearingsById = settleClearings(scanner, view);
  // An original the compaction in force kept verbatim stands for its copy, which carries its clearing.
  const clearingOf = (line: number, toolCallId: string, keptBy?: string) => {
    const copyLine = keptBy === undefined ? inForce?.copyLines?.get(line) : undefined;
    const id =
      copyLine === undefined
        ? view.clearedBy(line, toolCallId, keptBy)
        : view.clearedBy(copyLine, toolCallId, inForce?.id);
    return id === undefined ? undefined : clearingsById.get(id);
  };
  const scan: SessionScan = {
    header: header as SessionHeader,
    requests: scanner.requests,
    compactions: scanner.compactions,
    totals: scanner.totals,
    failed: view.failed,
    cleared: (line, toolCallId) => clearingOf(line, toolCallId) !== undefined,
    clearingOf,
    clearings: scanner.clearings,
    sandboxes: scanner.sandboxes,
    entries: scanner.entries,
    invalidLines: scanner.invalidLines,
    pinLines: scanner.pinLines,
    todos: scanner.todos,
  };
  if (scanner.window !== undefined) scan.window = scanner.window;
  return scan;
}
