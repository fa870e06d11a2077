import { incompleteCompactionProblem } from "./kept-copy-counter.js";
import type { SessionEntry } from "./session-entries.js";

/**
 * What the session model needs of one entry: its type, its id and the fields that make turns,
 * rewinds, compactions and kept copies. A reader that classifies lines by their first bytes (recall)
 * builds these without parsing whole lines; the others take them from parsed entries (`entryShape`).
 */
export type EntryShape =
  | { type: "message"; id: string; role: "user" | "assistant" | "tool"; keptBy?: string }
  | {
      type: "compaction";
      id: string;
      keptMessages?: number;
      turns?: { kept: readonly number[] };
      /**
       * The clearings it carries for its kept copies: their ids, the call ids they clear and, for
       * each (when recorded), the index among its kept copies of the one that holds the result.
       */
      clearings?: ReadonlyArray<CarriedShape>;
    }
  /** Old tool results cleared: the results written before it with these call ids hold stubs. */
  | { type: "clearing"; id: string; toolCallIds: readonly string[] }
  /** `/unclear`: the clearing `clearingId` is taken back. */
  | { type: "unclear"; id: string; clearingId: string }
  | { type: "uncompact"; id: string; compactionId: string }
  /** A rewind of the conversation (a code-only rewind is `other`: it changes no turn). */
  | { type: "rewind"; id: string; firstEntryId: string }
  | { type: "turn-failed"; id: string; firstEntryId: string }
  /** A learned window: never taken back by a rewind (a fact about the model, not the conversation). */
  | { type: "window"; id: string }
  | { type: "other"; id: string };

/** A clearing carried by a compaction, as the model reads it (`copies` aligned with `toolCallIds`). */
export interface CarriedShape {
  id: string;
  toolCallIds: readonly string[];
  copies?: ReadonlyArray<number | undefined>;
}

/** The shape of a parsed entry, as the model reads it. */
export function entryShape(entry: SessionEntry): EntryShape {
  switch (entry.type) {
    case "message": {
      const { id, keptBy } = entry;
      const role = entry.message.role;
      return keptBy === undefined ? { type: "message", id, role } : { type: "message", id, role, keptBy };
    }
    case "compaction":
      return {
        type: "compaction",
        id: entry.id,
        ...(entry.keptMessages === undefined ? {} : { keptMessages: entry.keptMessages }),
        ...(entry.turns === undefined ? {} : { turns: { kept: entry.turns.kept } }),
        ...(entry.clearings === undefined
          ? {}
          : {
              clearings: entry.clearings.map((carried) => ({
                id: carried.id,
                toolCallIds: carried.results.map((result) => result.toolCallId),
                copies: carried.results.map((result) => result.copy),
              })),
            }),
      };
    case "clearing":
      return {
        type: "clearing",
        id: entry.id,
        toolCallIds: entry.results.map((result) => result.toolCallId),
      };
    case "unclear":
      return { type: "unclear", id: entry.id, clearingId: entry.clearingId };
    case "uncompact":
      return { type: "uncompact", id: entry.id, compactionId: entry.compactionId };
    case "rewind":
      return entry.scope === "code"
        ? { type: "other", id: entry.id }
        : { type: "rewind", id: entry.id, firstEntryId: entry.firstEntryId };
    case "turn-failed":
      return { type: "turn-failed", id: entry.id, firstEntryId: entry.firstEntryId };
    case "window":
      return { type: "window", id: entry.id };
    default:
      return { type: "other", id: entry.id };
  }
}

/** How a turn stands in the effective context. */
export type TurnStatus = "in context" | "summarised" | "failed" | "rewound";

/** One user turn of the file: its 1-based number, the id of the user message that began it, and where. */
export interface ModelTurn {
  turn: number;
  id: string;
  position: number;
}

/** A range of positions, both ends included. */
interface Span {
  from: number;
  to: number;
}

interface CompactionSeen {
  id: string;
  position: number;
  keptMessages?: number;
  kept?: readonly number[];
  clearings?: ReadonlyArray<CarriedShape>;
  /** Turns the file held when it was written. */
  turnsBefore: number;
}

interface RewindSeen {
  id: string;
  firstEntryId: string;
  position: number;
  /** Where the entry it names is (the latest one with that id before it); absent when none is. */
  point?: number;
}

interface CopySeen {
  position: number;
  user: boolean;
}

/**
 * What the entries mean once all are seen: the ranges rewinds take back, the compaction replay
 * starts from, the failed turns, and what replay had to ignore (`problems`, in the order replay
 * reports them).
 */
export interface SessionView {
  /** The compaction replay starts at: its id and position; undefined when none is in force. */
  base?: { id: string; position: number };
  /** Whether the message entry at `position` (a kept copy when `keptBy` is set) is in the effective context. */
  replays(position: number, keptBy: string | undefined): boolean;
  /** The spans rewinds in effect take back (windows inside them excepted), latest rewind first. */
  rewoundSpans: ReadonlyArray<{ from: number; to: number }>;
  /** Rewinds ignored because their point is not before them. */
  rewindProblems: string[];
  /** Whether a rewind in effect takes the entry at `position` back (windows never are). */
  rewound(position: number): boolean;
  /**
   * Whether the entry at `position` belongs to a turn that failed for good: taken out by a
   * `turn-failed` entry after the compaction in force, or, before it, by one replay had in force
   * when that turn ended.
   */
  failed(position: number): boolean;
  /** The status of turn `turn` (1-based). */
  status(turn: number): TurnStatus;
  /** The turn number of each user message of the effective context, by position, kept copies included. */
  turnOfUser(position: number): number | undefined;
  /**
   * The ids of the clearings in force, oldest first: those the compaction in force carries, then
   * every clearing entry after it that no rewind took back, less those a later `unclear` took back.
   */
  clearings: readonly string[];
  /**
   * The clearing in force that stubs the result of call `toolCallId` in the message entry at
   * `position` (a kept copy when `keptBy` is set), if one does: a clearing entry stubs the results
   * written before it; a carried clearing, the kept copies of the compaction carrying it.
   */
  clearedBy(position: number, toolCallId: string, keptBy: string | undefined): string | undefined;
  problems: string[];
}

/**
 * The one definition of what a session file's entries mean (DESIGN "Session file", spec rule 3), as
 * a fold over the entries in file order: `apply` each with its position (an index, or a byte
 * offset: anything that grows along the file), then ask `view()`. It holds the structure only
 * (ids and positions, never message bodies), so a reader streaming a file of any size can use it.
 *
 * - A turn begins at each user message that is not a kept copy, numbered 1, 2, ... over the whole
 *   file whatever replay keeps (failed and rewound turns included).
 * - A rewind of the conversation takes back everything from its point (the latest entry before it
 *   with the id it names) through itself, window entries excepted, unless a later rewind took it
 *   back itself; a rewind whose point is not before it is ignored.
 * - Of what is left, replay starts at the latest compaction all of whose kept copies follow it and
 *   that no later `uncompact` undid; earlier entries contribute only through its summary.
 * - A `turn-failed` entry after that takes its turn out, from the entry it names through itself
 *   (from the original turn when it names a copy of an undone compaction).
 * - A kept copy replays when it belongs to the compaction replay starts at, or names no compaction
 *   after it; copies of cut-off or undone compactions duplicate earlier messages and do not.
 */
export class SessionModel {
  readonly turns: ModelTurn[] = [];
  /** Positions of every entry by id (file order): ids repeat only in damaged files. */
  readonly #positions = new Map<string, number[]>();
  readonly #compactions: CompactionSeen[] = [];
  readonly #copies = new Map<string, CopySeen[]>();
  readonly #uncompacts: Array<{ position: number; compactionId: string }> = [];
  readonly #rewinds: RewindSeen[] = [];
  readonly #failures: Array<{ id: string; position: number; firstEntryId: string }> = [];
  readonly #windows = new Set<number>();
  readonly #clearings: Array<{ id: string; position: number; toolCallIds: ReadonlySet<string> }> = [];
  readonly #unclears: Array<{ position: number; clearingId: string }> = [];
  #view: SessionView | undefined;

  apply(shape: EntryShape, position: number): void {
    this.#view = undefined;
    switch (shape.type) {
      case "message":
        if (shape.keptBy !== undefined)
          this.#listOf(this.#copies, shape.keptBy).push({ position, user: shape.role === "user" });
        else if (shape.role === "user")
          this.turns.push({ turn: this.turns.length + 1, id: shape.id, position });
        break;
      case "compaction":
        this.#compactions.push({
          id: shape.id,
          position,
          turnsBefore: this.turns.length,
          ...(shape.keptMessages === undefined ? {} : { keptMessages: shape.keptMessages }),
          ...(shape.turns === undefined ? {} : { kept: shape.turns.kept }),
          ...(shape.clearings === undefined ? {} : { clearings: shape.clearings }),
        });
        break;
      case "clearing":
        this.#clearings.push({ id: shape.id, position, toolCallIds: new Set(shape.toolCallIds) });
        break;
      case "unclear":
        this.#unclears.push({ position, clearingId: shape.clearingId });
        break;
      case "uncompact":
        this.#uncompacts.push({ position, compactionId: shape.compactionId });
        break;
      case "rewind": {
        const point = this.#positions.get(shape.firstEntryId)?.at(-1);
        this.#rewinds.push({
          id: shape.id,
          firstEntryId: shape.firstEntryId,
          position,
          ...(point === undefined ? {} : { point }),
        });
        break;
      }
      case "turn-failed":
        this.#failures.push({ id: shape.id, position, firstEntryId: shape.firstEntryId });
        break;
      case "window":
        this.#windows.add(position);
        break;
    }
    this.#listOf(this.#positions, shape.id).push(position);
  }

  /** What the entries applied so far mean; computed once per change. */
  view(): SessionView {
    this.#view ??= this.#compute();
    return this.#view;
  }

  #listOf<T>(map: Map<string, T[]>, key: string): T[] {
    let list = map.get(key);
    if (list === undefined) {
      list = [];
      map.set(key, list);
    }
    return list;
  }

  #compute(): SessionView {
    const rewindProblems: string[] = [];
    const rewound = this.#rewoundSpans(rewindProblems);
    const problems = [...rewindProblems];
    const taken = (position: number) => !this.#windows.has(position) && inSpans(rewound, position);
    const base = this.#base(taken);
    const from = base?.position ?? Number.NEGATIVE_INFINITY;
    const active = (position: number) => position >= from && !taken(position);
    this.#reportIncomplete(base, active, problems);
    const numbers = this.#numberUsers(base, active);
    const failed = this.#failedSpans(base, active, numbers, problems);
    const activeCompactions = new Set(
      this.#compactions.filter((seen) => active(seen.position)).map((seen) => seen.id),
    );
    const replays = (position: number, keptBy: string | undefined): boolean => {
      if (!active(position) || inSpans(failed, position)) return false;
      return keptBy === undefined || keptBy === base?.id || !activeCompactions.has(keptBy);
    };
    const numbered = this.#numberAllUsers(numbers, taken);
    const earlier = this.#earlierFailedSpans(base, taken, numbered);
    const failedAt = (position: number) => inSpans(failed, position) || inSpans(earlier, position);
    const failedTurns = new Set<number>();
    const inContext = new Set<number>();
    for (const [position, turn] of numbers) if (!inSpans(failed, position)) inContext.add(turn);
    // Each turn stands in its latest line: its user message, or the latest kept copy of it.
    const standing = new Map<number, number>();
    for (const [position, turn] of numbered)
      standing.set(turn, Math.max(position, standing.get(turn) ?? position));
    for (const [turn, position] of standing) if (failedAt(position)) failedTurns.add(turn);
    const status = (turn: number): TurnStatus => {
      const start = this.turns[turn - 1];
      if (start === undefined) return "summarised";
      // A turn whose message (or the copy standing for it) replays is in context, whatever else
      // its original went through before the compaction in force.
      if (inContext.has(turn)) return "in context";
      if (failedTurns.has(turn)) return "failed";
      return taken(start.position) ? "rewound" : "summarised";
    };
    const { clearings, clearedBy } = this.#clearingsInForce(base, active);
    return {
      ...(base === undefined ? {} : { base: { id: base.id, position: base.position } }),
      replays,
      clearings,
      clearedBy,
      rewound: taken,
      failed: failedAt,
      rewoundSpans: rewound,
      rewindProblems,
      status,
      turnOfUser: (position) => numbered.get(position),
      problems,
    };
  }

  /**
   * The clearings in force (see `SessionView.clearings`): carried by the base for its copies, and the
   * active clearing entries for what precedes them; an active `unclear` after a clearing takes it back.
   */
  #clearingsInForce(
    base: CompactionSeen | undefined,
    active: (position: number) => boolean,
  ): Pick<SessionView, "clearings" | "clearedBy"> {
    const basePosition = base?.position ?? Number.NEGATIVE_INFINITY;
    const undone = (id: string, after: number) =>
      this.#unclears.some((undo) => undo.clearingId === id && undo.position > after && active(undo.position));
    // Each carried result's kept copy, by position: the copy recorded, else any copy with its id.
    const copies = base === undefined ? [] : this.#copiesAfter(base, () => true);
    const carried = (base?.clearings ?? [])
      .filter((clearing) => !undone(clearing.id, basePosition))
      .map((clearing) => {
        const where = new Map<string, number | undefined>();
        clearing.toolCallIds.forEach((toolCallId, index) => {
          const copy = clearing.copies?.[index];
          where.set(toolCallId, copy === undefined ? undefined : (copies[copy]?.position ?? -1));
        });
        return { id: clearing.id, where };
      });
    const entries = this.#clearings.filter(
      (clearing) => active(clearing.position) && !undone(clearing.id, clearing.position),
    );
    const clearedBy = (position: number, toolCallId: string, keptBy: string | undefined) => {
      const entry = entries.find(
        (clearing) => clearing.position > position && clearing.toolCallIds.has(toolCallId),
      );
      if (entry !== undefined) return entry.id;
      if (base === undefined || keptBy !== base.id) return undefined;
      return carried.find((clearing) => {
        if (!clearing.where.has(toolCallId)) return false;
        const copyAt = clearing.where.get(toolCallId);
        return copyAt === undefined || copyAt === position;
      })?.id;
    };
    return {
      clearings: [...carried.map((clearing) => clearing.id), ...entries.map((clearing) => clearing.id)],
      clearedBy,
    };
  }

  /** The spans rewinds take back, latest rewind first (rewound-ranges.ts's rule, by position). */
  #rewoundSpans(problems: string[]): Span[] {
    const spans: Span[] = [];
    let coveredFrom = Number.POSITIVE_INFINITY;
    for (let index = this.#rewinds.length - 1; index >= 0; index--) {
      const rewind = this.#rewinds[index] as RewindSeen;
      if (rewind.position >= coveredFrom) continue;
      if (rewind.point === undefined) {
        problems.push(
          `rewind entry ${rewind.id} names entry ${rewind.firstEntryId}, which is not before it in the session; ignored`,
        );
        continue;
      }
      spans.push({ from: rewind.point, to: rewind.position });
      coveredFrom = rewind.point;
    }
    return spans;
  }

  /** The latest compaction not taken back whose copies all landed and that nothing undid. */
  #base(taken: (position: number) => boolean): CompactionSeen | undefined {
    return this.#compactions.findLast(
      (seen) => !taken(seen.position) && this.#complete(seen, taken) && !this.#undone(seen, taken),
    );
  }

  #copiesAfter(seen: CompactionSeen, counts: (position: number) => boolean): CopySeen[] {
    return (this.#copies.get(seen.id) ?? []).filter(
      (copy) => copy.position > seen.position && counts(copy.position),
    );
  }

  #complete(seen: CompactionSeen, taken: (position: number) => boolean): boolean {
    if (seen.keptMessages === undefined) return true;
    return this.#copiesAfter(seen, (position) => !taken(position)).length >= seen.keptMessages;
  }

  #undone(seen: CompactionSeen, taken: (position: number) => boolean): boolean {
    return this.#uncompacts.some(
      (undo) => undo.compactionId === seen.id && undo.position > seen.position && !taken(undo.position),
    );
  }

  /** Compactions after the base that were cut off (not undone): their copies never replay. */
  #reportIncomplete(
    base: CompactionSeen | undefined,
    active: (position: number) => boolean,
    problems: string[],
  ): void {
    for (const seen of this.#compactions) {
      if (seen === base || !active(seen.position) || this.#undone(seen, (p) => !active(p))) continue;
      const copies = this.#copiesAfter(seen, active).length;
      problems.push(incompleteCompactionProblem(seen, copies));
    }
  }

  /**
   * The spans failed turns take out of the active part: each `turn-failed` entry there, from the
   * latest active entry before it with the id it names, through itself.
   */
  #failedSpans(
    base: CompactionSeen | undefined,
    active: (position: number) => boolean,
    numbers: ReadonlyMap<number, number>,
    problems: string[],
  ): Span[] {
    const spans: Span[] = [];
    for (const failure of this.#failures) {
      if (!active(failure.position)) continue;
      const start = this.#latestBefore(failure.firstEntryId, failure.position, active);
      if (start === undefined) {
        problems.push(
          `turn-failed entry ${failure.id} names entry ${failure.firstEntryId}, which is not in the active part of the session (after the latest compaction); ignored`,
        );
        continue;
      }
      spans.push({ from: this.#originalTurnStart(start, base, active, numbers), to: failure.position });
    }
    return spans;
  }

  /**
   * The spans of the `turn-failed` entries before the compaction in force (and not taken back):
   * the turns that failed there before it summarised or kept them, each from the entry it names
   * (from the original turn when it names a copy of a compaction undone since).
   */
  #earlierFailedSpans(
    base: CompactionSeen | undefined,
    taken: (position: number) => boolean,
    numbered: ReadonlyMap<number, number>,
  ): Span[] {
    if (base === undefined) return [];
    const spans: Span[] = [];
    for (const failure of this.#failures) {
      if (failure.position >= base.position || taken(failure.position)) continue;
      const counts = (position: number) => !taken(position);
      const start = this.#latestBefore(failure.firstEntryId, failure.position, counts);
      if (start !== undefined)
        spans.push({
          from: this.#originalTurnStart(start, undefined, counts, numbered),
          to: failure.position,
        });
    }
    return spans;
  }

  #latestBefore(id: string, position: number, counts: (position: number) => boolean): number | undefined {
    return this.#positions.get(id)?.findLast((at) => at < position && counts(at));
  }

  /**
   * Where a failed turn really starts. A turn-failed entry written right after an overflow
   * compaction names the kept copy of the turn in flight; once that compaction is undone, its
   * copies no longer replay and the turn is the line that stood for it before that compaction: the
   * original turn, or the copy kept by the compaction in force when several were stacked.
   * `numbers` gives the turn of each user line that counts.
   */
  #originalTurnStart(
    start: number,
    base: CompactionSeen | undefined,
    active: (position: number) => boolean,
    numbers: ReadonlyMap<number, number>,
  ): number {
    const copyOf = this.#copyAt(start);
    if (copyOf === undefined || copyOf === base?.id) return start;
    const undone = this.#uncompacts.some((undo) => undo.compactionId === copyOf && active(undo.position));
    if (!undone) return start;
    const compaction = this.#compactions.find((seen) => seen.id === copyOf && active(seen.position));
    if (compaction === undefined) return start;
    const copyNumbers = new Map<number, number>();
    this.#numberCopies(compaction, active, copyNumbers);
    const turn = copyNumbers.get(start);
    let standing: number | undefined;
    for (const [position, number] of numbers)
      if (number === turn && position < compaction.position && active(position))
        standing = Math.max(position, standing ?? position);
    if (standing !== undefined) return standing;
    const begun = this.turns.findLast((seen) => seen.position < compaction.position && active(seen.position));
    return begun?.position ?? start;
  }

  /** The compaction id the kept copy at `position` names, if a copy is there. */
  #copyAt(position: number): string | undefined {
    for (const [keptBy, copies] of this.#copies)
      if (copies.some((copy) => copy.position === position)) return keptBy;
    return undefined;
  }

  /**
   * The turn number of every user message replay may keep, by position: turns by their start,
   * kept copies of the compaction in force by the turns it says they repeat (or, written before
   * turns were numbered, the turns just before it).
   */
  #numberUsers(base: CompactionSeen | undefined, active: (position: number) => boolean): Map<number, number> {
    const numbers = new Map<number, number>();
    for (const start of this.turns) if (active(start.position)) numbers.set(start.position, start.turn);
    if (base !== undefined) this.#numberCopies(base, active, numbers);
    return numbers;
  }

  /**
   * The same for every user message of the file: the copies of every compaction that took effect
   * (all its copies landed, nothing undid it, no rewind took it back) too.
   */
  #numberAllUsers(
    numbers: ReadonlyMap<number, number>,
    taken: (position: number) => boolean,
  ): Map<number, number> {
    const all = new Map(numbers);
    for (const start of this.turns) if (!all.has(start.position)) all.set(start.position, start.turn);
    for (const seen of this.#compactions)
      if (!taken(seen.position) && this.#complete(seen, taken) && !this.#undone(seen, taken))
        this.#numberCopies(seen, (position) => !taken(position) && !all.has(position), all);
    return all;
  }

  #numberCopies(
    seen: CompactionSeen,
    counts: (position: number) => boolean,
    into: Map<number, number>,
  ): void {
    const users = (this.#copies.get(seen.id) ?? []).filter(
      (copy) => copy.user && copy.position > seen.position && counts(copy.position),
    );
    const kept = seen.kept ?? users.map((_, index) => seen.turnsBefore - users.length + 1 + index);
    users.forEach((copy, index) => {
      const turn = kept[index];
      if (turn !== undefined) into.set(copy.position, turn);
    });
  }
}

function inSpans(spans: readonly Span[], position: number): boolean {
  return spans.some((span) => position >= span.from && position <= span.to);
}

/** The model of `entries` (in file order), each at its index. */
export function foldEntries(entries: readonly SessionEntry[]): SessionModel {
  const model = new SessionModel();
  for (const [index, entry] of entries.entries()) model.apply(entryShape(entry), index);
  return model;
}
