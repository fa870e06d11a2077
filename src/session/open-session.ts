import { randomUUID } from "node:crypto";
import { type FileHandle, mkdir, open } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import {
  type CompactionRecord,
  type CompactionTrigger,
  type EffectiveContext,
  type ErrorCode,
  type LearnedWindow,
  type Message,
  PantoError,
} from "../core/index.js";
import { learnedWindows } from "./learned-windows.js";
import { pinsInForce } from "./pins-in-force.js";
import { readActiveSuffix } from "./read-active-suffix.js";
import { recordedModel } from "./recorded-model.js";
import { type ReplayResult, replayEntries, survivingEntries } from "./replay-entries.js";
import type { OpenSessionOptions, Session } from "./session.js";
import {
  type CompactionAttemptRecord,
  type CompactionEntry,
  type CompactionFailedEntry,
  type MessageEntry,
  type ModelEntry,
  newEntryId,
  type PinEntry,
  type PinnedNote,
  SESSION_VERSION,
  type SessionEntry,
  type SessionHeader,
  type TurnFailedEntry,
  type UncompactEntry,
  type UnpinEntry,
  type WindowEntry,
} from "./session-entries.js";
import { SessionError } from "./session-error.js";
import { acquireSessionLock, type SessionLock, sameFile } from "./session-lock.js";

/** What openSession learned from the file before handing it over. */
interface LoadedFile {
  header: SessionHeader;
  entries: SessionEntry[];
  endsWithNewline: boolean;
  warnings: string[];
}

async function writeAll(file: FileHandle, data: Buffer): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await file.write(data, done, data.length - done);
    done += bytesWritten;
  }
}

function toLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** A header for a session started now in `cwd`. */
export function newSessionHeader(cwd: string): SessionHeader {
  return {
    type: "session",
    version: SESSION_VERSION,
    id: randomUUID(),
    created: new Date().toISOString(),
    cwd,
  };
}

async function createHeader(file: FileHandle, header: SessionHeader): Promise<LoadedFile> {
  await file.chmod(0o600);
  await writeAll(file, Buffer.from(toLine(header), "utf8"));
  return { header, entries: [], endsWithNewline: true, warnings: [] };
}

async function loadOrCreate(
  path: string,
  file: FileHandle,
  options: OpenSessionOptions,
): Promise<LoadedFile> {
  const { size } = await file.stat();
  // An empty file is a session that crashed before its header landed, or one the user made: start it.
  if (size === 0) return await createHeader(file, options.header ?? newSessionHeader(options.cwd));
  return await readActiveSuffix(path, file, size);
}

class FileSession implements Session {
  readonly header: SessionHeader;
  readonly hasFile = true;
  private entries: SessionEntry[];
  private ids: Set<string>;
  private needsNewline: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private closed = false;
  private replay: ReplayResult | undefined;
  private readonly reported = new Set<string>();

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
    this.ids = new Set(loaded.entries.map((entry) => entry.id));
    this.needsNewline = !loaded.endsWithNewline;
    // Reported by openSession already; a later reread must not repeat them.
    for (const warning of loaded.warnings) this.reported.add(warning);
  }

  effectiveContext(): EffectiveContext {
    this.replay ??= replayEntries(this.entries);
    for (const problem of this.replay.problems) this.warnOnce(`${this.path}: ${problem}`);
    return structuredClone(this.replay.context);
  }

  activeEntries(): readonly SessionEntry[] {
    return this.entries.slice();
  }

  appendMessage(message: Message): Promise<MessageEntry> {
    return this.enqueue(async () => {
      const entry: MessageEntry = { type: "message", ...this.stamp(), message: structuredClone(message) };
      await this.write([entry]);
      this.remember([entry]);
      return entry;
    });
  }

  appendCompaction(
    record: CompactionRecord,
    kept: readonly Message[],
  ): Promise<{ compaction: CompactionEntry; copies: MessageEntry[] }> {
    return this.enqueue(async () => {
      const windows = this.learnedWindows();
      const compaction: CompactionEntry = {
        type: "compaction",
        ...this.stamp(),
        ...structuredClone(record),
        keptMessages: kept.length,
        pins: pinsInForce(this.entries),
        ...(Object.keys(windows).length === 0 ? {} : { windows }),
      };
      const copies = kept.map(
        (message): MessageEntry => ({
          type: "message",
          ...this.stamp(),
          message: structuredClone(message),
          keptBy: compaction.id,
        }),
      );
      // One write: the block and its kept copies land together or (after a crash) as a torn tail,
      // which replay recognises by the count and the keptBy tags, and ignores.
      await this.write([compaction, ...copies]);
      this.entries = [];
      this.remember([compaction, ...copies]);
      this.ids = new Set(this.entries.map((entry) => entry.id));
      return { compaction, copies };
    });
  }

  appendWindow(model: string, window: LearnedWindow): Promise<WindowEntry> {
    return this.enqueue(async () => {
      const entry: WindowEntry = { type: "window", ...this.stamp(), model, ...structuredClone(window) };
      await this.write([entry]);
      this.remember([entry]);
      return entry;
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
      await this.write([entry]);
      this.remember([entry]);
      return entry;
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
      const { size } = await this.file.stat();
      const reread = await readActiveSuffix(this.path, this.file, size);
      for (const warning of reread.warnings) this.warnOnce(warning);
      this.entries = reread.entries;
      this.ids = new Set(this.entries.map((known) => known.id));
      this.replay = undefined;
      return entry;
    });
  }

  appendModel(model: string): Promise<ModelEntry> {
    return this.appendOne((stamp) => ({ type: "model", ...stamp, model }));
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
      const entry = build(this.stamp());
      await this.write([entry]);
      this.remember([entry]);
      return entry;
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

  /** Appends whole lines in a single write; after a torn last line, starts on a fresh line first. */
  private async write(entries: SessionEntry[]): Promise<void> {
    const lines = this.redact(entries.map(toLine).join(""));
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
  }
}

function defaultWarn(message: string): void {
  process.emitWarning(message, "PantoSessionWarning");
}

async function openLocked(path: string, lock: SessionLock, options: OpenSessionOptions): Promise<Session> {
  let file: FileHandle;
  try {
    // O_APPEND: every write lands at the end, whatever else happens to the offset.
    file = await open(path, "a+", 0o600);
  } catch (cause) {
    throw new SessionError(path, `cannot open session ${path}: ${(cause as Error).message}`, { cause });
  }
  try {
    // The name may have been pointed at another file since the lock was taken: never write to that one.
    if (!sameFile(await file.stat(), lock.identity)) {
      throw new SessionError(path, `session ${path} was replaced while it was being opened; try again`);
    }
    const loaded = await loadOrCreate(path, file, options);
    const warn = options.onWarning ?? defaultWarn;
    for (const warning of loaded.warnings) warn(warning);
    return new FileSession(path, file, lock, loaded, warn, options.redact);
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the file, creating it (and its folders, 0700; file 0600) with a header if it does not
 * exist. Takes the lock: a second process opening the same file gets a SessionError naming the
 * holder's pid. Resuming reads only the active suffix (from the latest compaction entry on).
 */
export async function openSession(path: string, options: OpenSessionOptions): Promise<Session> {
  const absolute = resolve(path);
  try {
    await mkdir(dirname(absolute), { recursive: true, mode: 0o700 });
  } catch (cause) {
    throw new SessionError(
      absolute,
      `cannot create the folder of session ${absolute}: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  const lock = await acquireSessionLock(absolute);
  try {
    return await openLocked(absolute, lock, options);
  } catch (error) {
    await lock.release();
    throw error;
  }
}
