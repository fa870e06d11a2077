import type { FileHandle } from "node:fs/promises";
import {
  type CompactionRecord,
  type CompactionTrigger,
  type EffectiveContext,
  type ErrorCode,
  type LearnedWindow,
  type Message,
  PantoError,
  type SandboxRecord,
  type ToolResultBlock,
} from "../core/index.js";
import { clearingsInForce } from "./clearings-in-force.js";
import { learnedWindows } from "./learned-windows.js";
import { pinsInForce } from "./pins-in-force.js";
import { type RewoundTurns, readActiveSuffix } from "./read-active-suffix.js";
import { recordedModel } from "./recorded-model.js";
import { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
import type { EntryFields, Session } from "./session.js";
import {
  type CarriedClearing,
  type CarriedResult,
  type CheckpointEntry,
  type ClearedResult,
  type ClearingEntry,
  type CompactionAttemptRecord,
  type CompactionEntry,
  type CompactionFailedEntry,
  entryHoldsImage,
  type MessageEntry,
  type ModelEntry,
  newEntryId,
  type PinEntry,
  type PinnedNote,
  type RewindEntry,
  type SandboxEntry,
  type SessionEntry,
  type SessionHeader,
  type TurnFailedEntry,
  type UnclearEntry,
  type UncompactEntry,
  type UnpinEntry,
  type WindowEntry,
} from "./session-entries.js";
import { SessionError } from "./session-error.js";
import type { StoredEntries } from "./session-images.js";
import type { SessionLock } from "./session-lock.js";

/** What openSession learned from the file before handing it over. */
export interface LoadedFile {
  header: SessionHeader;
  entries: SessionEntry[];
  endsWithNewline: boolean;
  warnings: string[];
  /** The turns rewinds took out of `entries` as they were read (none for a new file). */
  rewoundTurns?: RewoundTurns;
}

/** Writes all of `data`, however many writes it takes. */
export async function writeAll(file: FileHandle, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await file.write(data, done, data.length - done);
    done += bytesWritten;
  }
}

/** One JSONL line. */
export function toLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/**
 * An open, locked session file: entries are appended in call order, each as whole lines in one
 * write, and replay is computed from the entries read (the active suffix) and appended since.
 */
export class FileSession implements Session {
  readonly header: SessionHeader;
  readonly hasFile = true;
  private entries: SessionEntry[];
  /** The turns rewinds took out of `entries` when they were read, which turn numbers still count. */
  private rewound: RewoundTurns;
  private ids: Set<string>;
  private needsNewline: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private closed = false;
  private replay: ReplayResult | undefined;
  private readonly reported = new Set<string>();
  /** The id of an assistant message with tool calls this process appended: its calls may be running. */
  private callsWritten: string | undefined;

  constructor(
    readonly path: string,
    private readonly file: FileHandle,
    private readonly lock: SessionLock,
    loaded: LoadedFile,
    private readonly warn: (message: string) => void,
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.header = loaded.header;
    this.entries = loaded.entries;
    this.rewound = loaded.rewoundTurns ?? new Map();
    this.ids = new Set(loaded.entries.map((entry) => entry.id));
    this.needsNewline = !loaded.endsWithNewline;
    // Reported by openSession already; a later reread must not repeat them.
    for (const warning of loaded.warnings) this.reported.add(warning);
  }

  effectiveContext(): EffectiveContext {
    this.replay ??= replayEntries(this.entries);
    // Calls this process has just written are running (a status update or a permission question can
    // ask for the context meanwhile): their results are not missing yet. What else is wrong is
    // reported by the next replay, once the results are written.
    if (this.entries.at(-1)?.id !== this.callsWritten)
      for (const problem of this.replay.problems) this.warnOnce(`${this.path}: ${problem}`);
    return structuredClone(this.replay.context);
  }

  unclearedContext(): EffectiveContext {
    return structuredClone(replayEntries(this.entries, { uncleared: true }).context);
  }

  appendClearing(clearing: EntryFields<ClearingEntry>): Promise<ClearingEntry> {
    return this.appendOne((stamp) => ({ type: "clearing", ...stamp, ...structuredClone(clearing) }));
  }

  appendUnclear(unclear: EntryFields<UnclearEntry>): Promise<UnclearEntry> {
    return this.appendOne((stamp) => ({ type: "unclear", ...stamp, ...structuredClone(unclear) }));
  }

  /**
   * `kept` with every cleared result whole (the file holds outputs, never stubs), and the clearings
   * in force that stub one of its results, to carry on the compaction entry for its copies: each
   * result with the index of the kept copy that holds it, since a later result may reuse the id.
   */
  private keptWhole(kept: readonly Message[]): { messages: Message[]; carried: CarriedClearing[] } {
    const { clearings } = clearingsInForce(this.entries);
    if (clearings.length === 0) return { messages: structuredClone([...kept]), carried: [] };
    const stubs = new Map<string, { clearingId: string; result: ClearedResult }>();
    for (const clearing of clearings)
      for (const result of clearing.results)
        stubs.set(result.toolCallId, { clearingId: clearing.id, result });
    const stubOf = (block: ToolResultBlock) => {
      const cleared = stubs.get(block.toolCallId);
      const [only, ...more] = block.content;
      const stubbed = more.length === 0 && only?.type === "text" && only.text === cleared?.result.stub;
      return stubbed ? cleared : undefined;
    };
    // The whole result of each stub in the context: the same message of the context without stubs.
    this.replay ??= replayEntries(this.entries);
    const whole = replayEntries(this.entries, { uncleared: true }).context.messages;
    const originals = new Map<string, ToolResultBlock>();
    this.replay.context.messages.forEach((message, index) => {
      const counterpart = whole[index];
      if (message.role !== "tool" || counterpart?.role !== "tool") return;
      for (const block of message.content) {
        const original = counterpart.content.find((item) => item.toolCallId === block.toolCallId);
        if (stubOf(block) !== undefined && original !== undefined) originals.set(block.toolCallId, original);
      }
    });
    const carried = new Map<string, CarriedResult[]>();
    const messages = kept.map((message, copy): Message => {
      if (message.role !== "tool") return structuredClone(message);
      const content = message.content.map((block) => {
        const cleared = stubOf(block);
        if (cleared === undefined) return structuredClone(block);
        const results = carried.get(cleared.clearingId) ?? [];
        carried.set(cleared.clearingId, [...results, { ...structuredClone(cleared.result), copy }]);
        return structuredClone(originals.get(block.toolCallId) ?? block);
      });
      return { role: "tool", content };
    });
    return { messages, carried: [...carried].map(([id, results]) => ({ id, results })) };
  }

  activeEntries(): readonly SessionEntry[] {
    return this.entries.slice();
  }

  rewoundTurns(): RewoundTurns {
    return new Map(this.rewound);
  }

  appendMessage(message: Message): Promise<MessageEntry> {
    return this.enqueue(async () => {
      const entry: MessageEntry = { type: "message", ...this.stamp(), message: structuredClone(message) };
      const [written] = await this.write([entry]);
      this.remember([written as MessageEntry]);
      const calls =
        message.role === "assistant" && message.content.some((block) => block.type === "tool-call");
      this.callsWritten = calls ? written?.id : undefined;
      return written as MessageEntry;
    });
  }

  appendCompaction(
    record: CompactionRecord,
    kept: readonly Message[],
  ): Promise<{ compaction: CompactionEntry; copies: MessageEntry[] }> {
    return this.enqueue(async () => {
      const windows = this.learnedWindows();
      const whole = this.keptWhole(kept);
      const compaction: CompactionEntry = {
        type: "compaction",
        ...this.stamp(),
        ...structuredClone(record),
        keptMessages: kept.length,
        pins: pinsInForce(this.entries),
        ...(Object.keys(windows).length === 0 ? {} : { windows }),
        ...(whole.carried.length === 0 ? {} : { clearings: whole.carried }),
      };
      const copies = whole.messages.map(
        (message): MessageEntry => ({
          type: "message",
          ...this.stamp(),
          message,
          keptBy: compaction.id,
        }),
      );
      // One write: the block and its kept copies land together or (after a crash) as a torn tail,
      // which replay recognises by the count and the keptBy tags, and ignores.
      const [writtenCompaction, ...writtenCopies] = await this.write([compaction, ...copies]);
      this.entries = [];
      this.remember([writtenCompaction as CompactionEntry, ...(writtenCopies as MessageEntry[])]);
      this.ids = new Set(this.entries.map((entry) => entry.id));
      return { compaction: writtenCompaction as CompactionEntry, copies: writtenCopies as MessageEntry[] };
    });
  }

  appendWindow(model: string, window: LearnedWindow): Promise<WindowEntry> {
    return this.enqueue(async () => {
      const entry: WindowEntry = { type: "window", ...this.stamp(), model, ...structuredClone(window) };
      const [written] = await this.write([entry]);
      this.remember([written as WindowEntry]);
      return written as WindowEntry;
    });
  }

  learnedWindows(): Record<string, LearnedWindow> {
    return learnedWindows(this.entries);
  }

  markLastTurnFailed(code: ErrorCode, error: string): Promise<TurnFailedEntry | undefined> {
    return this.enqueue(async () => {
      const lastUser = survivingEntries(this.entries).messages.findLast(
        (entry) => entry.message.role === "user",
      );
      if (lastUser === undefined) return undefined;
      const entry: TurnFailedEntry = {
        type: "turn-failed",
        ...this.stamp(),
        firstEntryId: lastUser.id,
        code,
        error,
      };
      const [written] = await this.write([entry]);
      this.remember([written as TurnFailedEntry]);
      return written as TurnFailedEntry;
    });
  }

  activeCompaction(): CompactionEntry | undefined {
    return survivingEntries(this.entries).compaction;
  }

  pins(): PinnedNote[] {
    return pinsInForce(this.entries);
  }

  appendPin(text: string): Promise<PinEntry> {
    return this.appendOne((stamp) => ({ type: "pin", ...stamp, text }));
  }

  appendUnpin(pinId: string): Promise<UnpinEntry> {
    return this.appendOne((stamp) => ({ type: "unpin", ...stamp, pinId }));
  }

  appendCompactionFailed(
    trigger: CompactionTrigger,
    attempts: readonly CompactionAttemptRecord[],
  ): Promise<CompactionFailedEntry> {
    return this.appendOne((stamp) => ({
      type: "compaction-failed",
      ...stamp,
      trigger,
      attempts: structuredClone([...attempts]),
    }));
  }

  appendUncompact(compactionId: string): Promise<UncompactEntry> {
    return this.enqueue(async () => {
      const entry: UncompactEntry = { type: "uncompact", ...this.stamp(), compactionId };
      await this.write([entry]);
      // The suffix in memory starts at the undone compaction: read back to the one before it.
      await this.reread();
      return entry;
    });
  }

  appendCheckpoint(checkpoint: EntryFields<CheckpointEntry>): Promise<CheckpointEntry> {
    return this.appendOne((stamp) => ({ type: "checkpoint", ...stamp, ...structuredClone(checkpoint) }));
  }

  appendRewind(rewind: EntryFields<RewindEntry>): Promise<RewindEntry> {
    return this.enqueue(async () => {
      const entry: RewindEntry = { type: "rewind", ...this.stamp(), ...structuredClone(rewind) };
      await this.write([entry]);
      if (entry.scope === "code") this.remember([entry]);
      // The point may lie before the compaction in memory: read back to what is in effect now.
      else await this.reread();
      return entry;
    });
  }

  /** Replaces the suffix in memory with the one the file holds now, read backward. */
  private async reread(): Promise<void> {
    const { size } = await this.file.stat();
    const reread = await readActiveSuffix(this.path, this.file, size);
    for (const warning of reread.warnings) this.warnOnce(warning);
    // Ids already given stay taken, so no later entry repeats one of a range now read past.
    for (const entry of reread.entries) this.ids.add(entry.id);
    this.entries = reread.entries;
    this.rewound = reread.rewoundTurns;
    this.replay = undefined;
  }

  appendModel(model: string): Promise<ModelEntry> {
    return this.appendOne((stamp) => ({ type: "model", ...stamp, model }));
  }

  appendSandbox(record: SandboxRecord): Promise<SandboxEntry> {
    return this.appendOne((stamp) => ({ type: "sandbox", ...stamp, ...record }));
  }

  recordedModel(): string | undefined {
    return recordedModel(this.entries);
  }

  close(): Promise<void> {
    this.closing ??= this.enqueue(async () => {
      this.closed = true;
      try {
        await this.file.close();
      } finally {
        await this.lock.release();
      }
    });
    return this.closing;
  }

  /** Appends one entry built from a fresh stamp, in call order. */
  private appendOne<T extends SessionEntry>(build: (stamp: { id: string; ts: string }) => T): Promise<T> {
    return this.enqueue(async () => {
      const [written] = await this.write([build(this.stamp())]);
      this.remember([written as T]);
      return written as T;
    });
  }

  private warnOnce(message: string): void {
    if (this.reported.has(message)) return;
    this.reported.add(message);
    this.warn(message);
  }

  /** Runs `operation` after every earlier one, so entries reach the file in call order. */
  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new SessionError(this.path, `session ${this.path} is closed`);
      return operation();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A fresh id (unique among the entries replay looks at) and the current time. */
  private stamp(): { id: string; ts: string } {
    let id = newEntryId();
    while (this.ids.has(id)) id = newEntryId();
    this.ids.add(id);
    return { id, ts: new Date().toISOString() };
  }

  private remember(entries: SessionEntry[]): void {
    this.entries.push(...entries);
    this.replay = undefined;
  }

  /**
   * Appends whole lines in a single write; after a torn last line, starts on a fresh line first.
   * Returns the entries as the file now holds them: when redaction replaced a secret (a key a tool
   * printed, a token a server echoed), the redacted entries, which the caller keeps in memory, so
   * the context sent to the provider never carries what the file does not.
   */
  private async write(entries: SessionEntry[]): Promise<SessionEntry[]> {
    const stored = await this.storeImages(entries);
    const plain = stored.entries.map(toLine);
    const redacted = plain.map((line) => this.redact(line));
    const lines = redacted.join("");
    const data = Buffer.from(this.needsNewline ? `\n${lines}` : lines, "utf8");
    try {
      await writeAll(this.file, data);
    } catch (cause) {
      // Part of the data may have landed: make sure the next entry starts on its own line.
      this.needsNewline = true;
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new PantoError("other", `${this.path}: could not append to the session: ${detail}`, { cause });
    }
    this.needsNewline = false;
    return await Promise.all(
      entries.map((entry, index) =>
        redacted[index] === plain[index]
          ? entry
          : this.withImageData(JSON.parse(redacted[index] as string) as SessionEntry, stored.data),
      ),
    );
  }

  /** An entry as re-read after redaction, with its images' bytes put back. */
  private async withImageData(entry: SessionEntry, data: ReadonlyMap<string, string>): Promise<SessionEntry> {
    if (data.size === 0) return entry;
    return (await import("./session-images.js")).withImageData(entry, data);
  }

  /** The entries with their images' bytes in the session's images folder, which is told apart from the file by name. */
  private async storeImages(entries: SessionEntry[]): Promise<StoredEntries> {
    if (!entries.some(entryHoldsImage)) return { entries, data: new Map() };
    // Loaded with the first image, not with every run.
    const { imagesFolder, storeImages } = await import("./session-images.js");
    try {
      return await storeImages(entries, imagesFolder(this.path));
    } catch (cause) {
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new PantoError(
        "other",
        `${imagesFolder(this.path)}: could not store an image of the session: ${detail}`,
        {
          cause,
        },
      );
    }
  }
}
