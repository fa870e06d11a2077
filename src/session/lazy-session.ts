import { resolve } from "node:path";
import type {
  CompactionRecord,
  CompactionTrigger,
  EffectiveContext,
  ErrorCode,
  LearnedWindow,
  Message,
} from "../core/index.js";
import { newSessionHeader, openSession } from "./open-session.js";
import type { OpenSessionOptions, Session } from "./session.js";
import type {
  CompactionAttemptRecord,
  CompactionEntry,
  CompactionFailedEntry,
  MessageEntry,
  ModelEntry,
  PinEntry,
  PinnedNote,
  SessionEntry,
  SessionHeader,
  TurnFailedEntry,
  UncompactEntry,
  UnpinEntry,
  WindowEntry,
} from "./session-entries.js";
import { SessionError } from "./session-error.js";

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

class LazySession implements Session {
  readonly path: string;
  readonly header: SessionHeader;
  readonly #options: OpenSessionOptions;
  #opening: Promise<Session> | undefined;
  #opened: Session | undefined;
  #closed = false;

  constructor(path: string, options: OpenSessionOptions & { header: SessionHeader }) {
    this.path = path;
    this.header = options.header;
    this.#options = options;
  }

  get hasFile(): boolean {
    return this.#opened !== undefined;
  }

  effectiveContext(): EffectiveContext {
    return this.#opened?.effectiveContext() ?? { messages: [] };
  }

  activeEntries(): readonly SessionEntry[] {
    return this.#opened?.activeEntries() ?? [];
  }

  activeCompaction(): CompactionEntry | undefined {
    return this.#opened?.activeCompaction();
  }

  pins(): PinnedNote[] {
    return this.#opened?.pins() ?? [];
  }

  recordedModel(): string | undefined {
    return this.#opened?.recordedModel();
  }

  learnedWindows(): Record<string, LearnedWindow> {
    return this.#opened?.learnedWindows() ?? {};
  }

  async appendMessage(message: Message): Promise<MessageEntry> {
    return (await this.#file()).appendMessage(message);
  }

  async appendCompaction(
    record: CompactionRecord,
    kept: readonly Message[],
  ): Promise<{ compaction: CompactionEntry; copies: MessageEntry[] }> {
    return (await this.#file()).appendCompaction(record, kept);
  }

  async markLastTurnFailed(code: ErrorCode, error: string): Promise<TurnFailedEntry | undefined> {
    // Without a file there is no turn to mark.
    if (this.#opening === undefined) return undefined;
    return (await this.#file()).markLastTurnFailed(code, error);
  }

  async appendPin(text: string): Promise<PinEntry> {
    return (await this.#file()).appendPin(text);
  }

  async appendUnpin(pinId: string): Promise<UnpinEntry> {
    return (await this.#file()).appendUnpin(pinId);
  }

  async appendUncompact(compactionId: string): Promise<UncompactEntry> {
    return (await this.#file()).appendUncompact(compactionId);
  }

  async appendCompactionFailed(
    trigger: CompactionTrigger,
    attempts: readonly CompactionAttemptRecord[],
  ): Promise<CompactionFailedEntry> {
    return (await this.#file()).appendCompactionFailed(trigger, attempts);
  }

  async appendWindow(model: string, window: LearnedWindow): Promise<WindowEntry> {
    return (await this.#file()).appendWindow(model, window);
  }

  async appendModel(model: string): Promise<ModelEntry> {
    return (await this.#file()).appendModel(model);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#opening === undefined) return;
    const session = await this.#opening.catch(() => undefined);
    await session?.close();
  }

  /** Creates and locks the file on first use; a failed attempt is retried by the next append. */
  #file(): Promise<Session> {
    if (this.#closed) return Promise.reject(new SessionError(this.path, `session ${this.path} is closed`));
    this.#opening ??= openSession(this.path, this.#options).then(
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
}
