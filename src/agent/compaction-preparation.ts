import { groupTurns, type PreparedSummary, type PrepareOutcome } from "../compaction/index.js";
import type { Message, SummaryRequestUsage } from "../core/index.js";
import type { Session } from "../session/index.js";

/**
 * Session entries that leave a prepared summary's prefix as it was: turns appended after it,
 * bookkeeping, and clearings of old tool results and their undo (a clearing changes what the
 * context holds of a result, not what happened: the summary still stands for the same turns, which
 * are compared uncleared). Anything else (a compaction, an undo, an edited summary, a pin, a rewind)
 * changes what the summary stands for, and it is dropped.
 */
const APPENDED_ONLY: ReadonlySet<string> = new Set([
  "message",
  "clearing",
  "unclear",
  "turn-failed",
  "model",
  "window",
  "sandbox",
  "checkpoint",
  "compaction-failed",
]);

/** A summary written ahead, with what its requests cost (recorded with the compaction that applies it). */
export interface PreparedCompaction {
  prepared: PreparedSummary;
  usage: SummaryRequestUsage[];
  /** Estimated tokens of the turns it stands for. */
  tokensSummarised: number;
  /** Written because the prompt cache went cold (`compact_when_cold`): the next request applies it. */
  coldCache?: true;
}

/** What `/summary` says of the compaction prepared ahead. */
export type PendingCompaction =
  | { state: "writing" }
  | {
      state: "ready";
      turns: number;
      tokensSummarised: number;
      model: string;
      summary: string;
      /** Written because the prompt cache went cold: the next prompt applies it. */
      coldCache?: true;
    };

/** Where the session stood when the summary was asked for: what must still hold when it is applied. */
interface Mark {
  compactionId: string | undefined;
  lastEntryId: string | undefined;
  messages: Message[];
}

interface Slot {
  mark: Mark;
  controller: AbortController;
  done: Promise<PreparedCompaction | undefined>;
  result: PreparedCompaction | undefined;
  settled: boolean;
}

/** Writes a summary of the prefix, on top of `onTopOf` (held, still the context's first turns) when given. */
export type WritePrepared = (
  signal: AbortSignal,
  onTopOf?: PreparedSummary,
) => Promise<{ outcome: PrepareOutcome; usage: SummaryRequestUsage[] }>;

/**
 * The one compaction summary an agent may hold ready (config `prepare_compaction_at`): written in
 * the background from a snapshot of the session, applied at most once, and only while the turns it
 * summarises are still the context's first and nothing but turns was appended since.
 */
export class CompactionPreparation {
  #slot: Slot | undefined;

  /**
   * Starts writing one from the session as it is now, unless one is being written, or one is held
   * that the session still holds and `stillFits` takes (by default any), or a turn is running. When
   * the turns added since the one held was written have outgrown what an overflow could keep after
   * it (`stillFits` refuses it), the turns the prefix now takes beyond it are summarised on top of
   * it, as the overflow would otherwise do while the user waits; its requests' cost is carried over.
   */
  start(
    session: Session,
    write: WritePrepared,
    stillFits: (held: PreparedCompaction) => boolean = () => true,
  ): Promise<PreparedCompaction | undefined> | undefined {
    const held = this.#slot;
    if (held !== undefined && !held.settled) return undefined;
    const base = held?.result !== undefined && holds(session, held) ? held.result : undefined;
    if (base !== undefined && stillFits(base)) return undefined;
    const messages = session.unclearedContext().messages;
    // A turn already running again (a prompt typed ahead) is not summarised half-done: the next turn's end prepares.
    if (!endsWithAnswer(messages)) return undefined;
    this.discard();
    const entries = session.activeEntries();
    const mark: Mark = {
      compactionId: session.activeCompaction()?.id,
      lastEntryId: entries.at(-1)?.id,
      messages,
    };
    const controller = new AbortController();
    const slot: Slot = {
      mark,
      controller,
      done: Promise.resolve(undefined),
      result: undefined,
      settled: false,
    };
    slot.done = written(write, controller.signal, mark, base).then((result) => {
      slot.settled = true;
      // Dropped while it was written: nothing is kept.
      if (this.#slot === slot) slot.result = result;
      // Failed: the one it was to extend is held again (an overflow extends it then, as before).
      if (this.#slot === slot && result === undefined) this.#slot = base === undefined ? undefined : held;
      return this.#slot === slot ? result : undefined;
    });
    this.#slot = slot;
    return slot.done;
  }

  /** What `/summary` shows: the summary being written, or ready while `session` still holds it. */
  pending(session: Session): PendingCompaction | undefined {
    const slot = this.#slot;
    if (slot === undefined) return undefined;
    if (!slot.settled || slot.result === undefined) return { state: "writing" };
    if (!holds(session, slot)) {
      this.#slot = undefined;
      return undefined;
    }
    const { prepared, tokensSummarised, coldCache } = slot.result;
    return {
      state: "ready",
      turns: prepared.turns,
      tokensSummarised,
      model: prepared.summary.model,
      summary: prepared.summary.summary,
      ...(coldCache === true ? { coldCache } : {}),
    };
  }

  /**
   * The summary ready for a compaction of `session` now (waiting for one being written), when the
   * session still holds it and `accept` takes it; it is given once. One the session no longer holds
   * is dropped; one `accept` refuses stays for a later compaction.
   */
  async take(
    session: Session,
    accept: (prepared: PreparedSummary) => boolean,
    signal?: AbortSignal,
  ): Promise<PreparedCompaction | undefined> {
    const slot = this.#slot;
    if (slot === undefined) return undefined;
    // A cancel of the turn stops the wait (the compaction then ends as cancelled); the summary goes on.
    const result = await untilAborted(slot.done, signal);
    if (this.#slot !== slot || result === undefined) return undefined;
    if (!holds(session, slot)) {
      this.#slot = undefined;
      return undefined;
    }
    if (!accept(result.prepared)) return undefined;
    this.#slot = undefined;
    return result;
  }

  /** Drops the summary held or being written (its request cancelled); true when there was one. */
  discard(): boolean {
    const slot = this.#slot;
    if (slot === undefined) return false;
    this.#slot = undefined;
    slot.controller.abort();
    return true;
  }

  /** Drops it and waits for a request being written to end, so nothing runs after the session closes. */
  async close(): Promise<void> {
    const slot = this.#slot;
    this.discard();
    await slot?.done;
  }
}

/** Whether the context ends with a finished answer (no turn running). */
function endsWithAnswer(messages: readonly Message[]): boolean {
  const last = messages.at(-1);
  return last?.role === "assistant" && !last.content.some((block) => block.type === "tool-call");
}

/** `done`, or undefined as soon as `signal` aborts. */
function untilAborted<T>(
  done: Promise<T | undefined>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (signal === undefined) return done;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    void done.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
  });
}

/** Writes it; a failure or cancel leaves nothing (the overflow then compacts as v1 does). Never rejects. */
async function written(
  write: WritePrepared,
  signal: AbortSignal,
  mark: Mark,
  base: PreparedCompaction | undefined,
): Promise<PreparedCompaction | undefined> {
  try {
    const { outcome, usage } = await write(signal, base?.prepared);
    if (outcome.type !== "prepared" || signal.aborted) return undefined;
    const turns = groupTurns(mark.messages).slice(0, outcome.prepared.turns);
    if (turns.length !== outcome.prepared.turns) return undefined;
    // Written on top of the one held: what that one's requests cost is part of this one's.
    const carried = base !== undefined && outcome.prepared.turns > base.prepared.turns ? base.usage : [];
    return {
      prepared: outcome.prepared,
      usage: [...carried, ...usage],
      tokensSummarised: outcome.plan.summarisedTokens,
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the session still holds what the summary was written from: the same compaction in
 * effect, only turns (and bookkeeping) appended after the entry that was last, and the summarised
 * turns unchanged at the start of the context.
 */
function holds(session: Session, slot: Slot): boolean {
  const { mark, result } = slot;
  if (result === undefined || session.activeCompaction()?.id !== mark.compactionId) return false;
  const entries = session.activeEntries();
  const from =
    mark.lastEntryId === undefined ? 0 : entries.findIndex((entry) => entry.id === mark.lastEntryId) + 1;
  if (from === 0 && mark.lastEntryId !== undefined) return false;
  if (!entries.slice(from).every((entry) => APPENDED_ONLY.has(entry.type))) return false;
  const count = result.prepared.turns;
  const then = groupTurns(mark.messages).slice(0, count);
  const now = groupTurns(session.unclearedContext().messages).slice(0, count);
  return now.length === count && JSON.stringify(now) === JSON.stringify(then);
}
