import { stat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { lockSessionFile, newSessionHeader, openLockedSession, openSession } from "./open-session.js";
import type { OpenSessionOptions, Session } from "./session.js";
import type { SessionHeader } from "./session-entries.js";
import { SessionError } from "./session-error.js";
import type { SessionLock } from "./session-lock.js";

/**
 * A new session whose file (and lock) is created by its first append: until then it is empty and
 * leaves nothing on disk, so a launch that never sends anything leaves no empty session behind.
 * The header (and so the id) is fixed now and written with the first entry.
 */
export function openNewSession(path: string, options: OpenSessionOptions): Session {
  return new LazySession(resolve(path), {
    ...options,
    header: options.header ?? newSessionHeader(options.cwd),
  });
}

/**
 * Like `openNewSession`, but the file is locked now (created empty, as a lock needs a file to
 * name): a path the user chose may be chosen by another panto at the same moment, and the second
 * one must be refused at once, before it has done anything, not at its first write. Closed with
 * nothing written, the empty file is removed again.
 */
export async function openReservedSession(path: string, options: OpenSessionOptions): Promise<Session> {
  const absolute = resolve(path);
  const lock = await lockSessionFile(absolute);
  return new LazySession(
    absolute,
    { ...options, header: options.header ?? newSessionHeader(options.cwd) },
    lock,
  );
}

/**
 * Each method takes its type from `Session`, so the interface is the one place a signature is
 * written: reads answer as an empty session until the file exists, appends create it first.
 */
class LazySession implements Session {
  readonly path: string;
  readonly header: SessionHeader;
  readonly #options: OpenSessionOptions;
  #opening: Promise<Session> | undefined;
  #opened: Session | undefined;
  #closed = false;
  /** Held from the start for a reserved session; handed to the file once it is opened. */
  #lock: SessionLock | undefined;
  /** The lock being taken since `reserve()`, until the first append or close takes it over. */
  #reserving: Promise<SessionLock> | undefined;

  constructor(path: string, options: OpenSessionOptions & { header: SessionHeader }, lock?: SessionLock) {
    this.path = path;
    this.header = options.header;
    this.#options = options;
    this.#lock = lock;
  }

  get hasFile(): boolean {
    return this.#opened !== undefined;
  }

  readonly effectiveContext: Session["effectiveContext"] = () =>
    this.#opened?.effectiveContext() ?? { messages: [] };
  readonly unclearedContext: Session["unclearedContext"] = () =>
    this.#opened?.unclearedContext() ?? { messages: [] };
  readonly appendClearing: Session["appendClearing"] = async (clearing) =>
    (await this.#file()).appendClearing(clearing);
  readonly appendUnclear: Session["appendUnclear"] = async (unclear) =>
    (await this.#file()).appendUnclear(unclear);
  readonly activeEntries: Session["activeEntries"] = () => this.#opened?.activeEntries() ?? [];
  readonly rewoundTurns = (): ReturnType<NonNullable<Session["rewoundTurns"]>> =>
    this.#opened?.rewoundTurns?.() ?? new Map();
  readonly activeCompaction: Session["activeCompaction"] = () => this.#opened?.activeCompaction();
  readonly pins: Session["pins"] = () => this.#opened?.pins() ?? [];
  readonly recordedModel: Session["recordedModel"] = () => this.#opened?.recordedModel();
  readonly learnedWindows: Session["learnedWindows"] = () => this.#opened?.learnedWindows() ?? {};

  readonly appendMessage: Session["appendMessage"] = async (message) =>
    (await this.#file()).appendMessage(message);
  readonly appendCompaction: Session["appendCompaction"] = async (record, kept) =>
    (await this.#file()).appendCompaction(record, kept);
  readonly appendPin: Session["appendPin"] = async (text) => (await this.#file()).appendPin(text);
  readonly appendUnpin: Session["appendUnpin"] = async (pinId) => (await this.#file()).appendUnpin(pinId);
  readonly appendUncompact: Session["appendUncompact"] = async (compactionId) =>
    (await this.#file()).appendUncompact(compactionId);
  readonly appendCompactionFailed: Session["appendCompactionFailed"] = async (trigger, attempts) =>
    (await this.#file()).appendCompactionFailed(trigger, attempts);
  readonly appendWindow: Session["appendWindow"] = async (model, window) =>
    (await this.#file()).appendWindow(model, window);
  readonly appendModel: Session["appendModel"] = async (model) => (await this.#file()).appendModel(model);
  readonly appendSandbox: Session["appendSandbox"] = async (record) =>
    (await this.#file()).appendSandbox(record);
  readonly appendCheckpoint: Session["appendCheckpoint"] = async (checkpoint) =>
    (await this.#file()).appendCheckpoint(checkpoint);
  readonly appendRewind: Session["appendRewind"] = async (rewind) =>
    (await this.#file()).appendRewind(rewind);

  readonly markLastTurnFailed: Session["markLastTurnFailed"] = async (code, error) => {
    // Without a file there is no turn to mark.
    if (this.#opening === undefined) return undefined;
    return (await this.#file()).markLastTurnFailed(code, error);
  };

  readonly reserve = (): void => {
    if (
      this.#closed ||
      this.#opening !== undefined ||
      this.#lock !== undefined ||
      this.#reserving !== undefined
    )
      return;
    this.#reserving = lockSessionFile(this.path);
    // Not lost: the first append (or close) awaits it and meets the failure there.
    this.#reserving.catch(() => undefined);
  };

  async close(): Promise<void> {
    this.#closed = true;
    const reserving = this.#reserving;
    this.#reserving = undefined;
    if (reserving !== undefined) this.#lock ??= await reserving.catch(() => undefined);
    if (this.#opening === undefined) return await this.#releaseReservation();
    const session = await this.#opening.catch(() => undefined);
    await session?.close();
  }

  /** Creates and locks the file on first use; a failed attempt is retried by the next append. */
  #file(): Promise<Session> {
    if (this.#closed) return Promise.reject(new SessionError(this.path, `session ${this.path} is closed`));
    this.#opening ??= this.#open().then(
      (session) => {
        this.#opened = session;
        return session;
      },
      (error: unknown) => {
        this.#opening = undefined;
        throw error;
      },
    );
    return this.#opening;
  }

  #open(): Promise<Session> {
    const reserving = this.#reserving;
    if (reserving !== undefined) {
      // A failed reservation is forgotten, so the next append tries afresh.
      this.#reserving = undefined;
      return reserving.then((lock) => openLockedSession(this.path, lock, this.#options));
    }
    const lock = this.#lock;
    if (lock === undefined) return openSession(this.path, this.#options);
    // The opened file owns the lock from here, and releases it itself if opening fails.
    this.#lock = undefined;
    return openLockedSession(this.path, lock, this.#options);
  }

  /** A reserved file that was never written is removed (while still locked), then the lock. */
  async #releaseReservation(): Promise<void> {
    const lock = this.#lock;
    if (lock === undefined) return;
    this.#lock = undefined;
    if ((await stat(this.path).catch(() => undefined))?.size === 0)
      await unlink(this.path).catch(() => undefined);
    await lock.release();
  }
}
