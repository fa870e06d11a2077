import { parseSessionLine, type SessionEntry } from "../session/index.js";
import { DROPPING_TYPES, type DropReason, droppedTurns } from "./dropped-turns.js";
import type { LineChunk } from "./scan-lines.js";

/**
 * What one line of a session file is, as far as recall cares. One object is reused for every line
 * (a search sees every line of a large file): read it before the next line is seen.
 */
export interface LineInfo {
  kind: "message" | "other";
  role: "user" | "assistant" | "tool" | undefined;
  /** The turn it belongs to (0 before the first user message). */
  turn: number;
  /** A kept copy written with a compaction: it repeats a turn, so it is not searched or read. */
  copy: boolean;
  /** Its time (ISO), for a message. */
  ts: string;
  /** For a message read by its first bytes: where its time is in the chunk (the time is read only when needed). */
  tsStart: number;
  tsEnd: number;
}

/** How a turn stands in the current context. */
export type TurnStatus = DropReason | "summarised" | "in context";

/** The first bytes of a message line as panto writes it (JSON.stringify keeps key order). */
const MESSAGE_PREFIX = Buffer.from('{"type":"message","id":"');
const TS_KEY = Buffer.from('","ts":"');
const ROLE_KEY = Buffer.from('","message":{"role":"');
const TYPE_PREFIX = Buffer.from('{"type":"');
/** A kept copy ends with its `keptBy` (written last): `"keptBy":"<id>"}`. */
const KEPT_KEY = Buffer.from('"keptBy":"');
const ROLES = [
  { name: "user", bytes: Buffer.from('user"') },
  { name: "assistant", bytes: Buffer.from('assistant"') },
  { name: "tool", bytes: Buffer.from('tool"') },
] as const;
/** A user role, written plainly (as a repeated "message" key of a hostile line would hold it). */
const USER_ROLE = Buffer.from('"role":"user"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Entry types whose content recall reads: the rest are looked at only by their first bytes. */
const STRUCTURAL_TYPES: ReadonlySet<string> = new Set(["compaction", "uncompact", ...DROPPING_TYPES]);
/** Entry types that say nothing about turns, skipped by their first bytes. */
const IGNORED_TYPES: ReadonlySet<string> = new Set([
  "pin",
  "unpin",
  "model",
  "window",
  "compaction-failed",
  "sandbox",
  "checkpoint",
]);

/** Whether `bytes` holds `prefix` at `at`, before `end` (a plain loop: cheaper than Buffer.compare per line). */
function holdsAt(bytes: Buffer, at: number, end: number, prefix: Buffer): boolean {
  if (end - at < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) if (bytes[at + index] !== prefix[index]) return false;
  return true;
}

/** Where the JSON string from `at` ends (its closing quote) when it holds no escape and ends before `end`; else -1. */
function plainStringEnd(bytes: Buffer, at: number, end: number): number {
  for (let index = at; index < end; index++) {
    const byte = bytes[index];
    if (byte === QUOTE) return index;
    if (byte === BACKSLASH) return -1;
  }
  return -1;
}

interface CompactionSeen {
  id: string;
  /** Where its line starts in the file. */
  offset: number;
  through?: number;
  kept?: readonly number[];
  keptMessages?: number;
  copies: number;
  userCopies: number;
  /** The turn the compaction entry was written in. */
  turn: number;
}

/**
 * Follows a session file line by line, by the first bytes of each line wherever panto wrote it
 * (any other line is parsed whole): numbers the turns as src/session/turn-numbers.ts does (the
 * file's user messages, kept copies not counted), notes where each turn starts, which turns replay
 * leaves out and why, and which compaction is in effect, so a hit can say how its turn stands.
 */
export class SessionStructure {
  turn = 0;
  /** File offset of each turn's user message, by turn number (index 0 unused). */
  readonly turnStarts: number[] = [0];
  readonly #userTurns = new Map<string, number>();
  readonly #dropped = new Map<number, DropReason>();
  readonly #compactions: CompactionSeen[] = [];
  readonly #byId = new Map<string, CompactionSeen>();
  /** Where each `uncompact` of a compaction id was written. */
  readonly #undone = new Map<string, number[]>();
  /** Rewinds of the conversation, in file order, with the offset of the point each names. */
  readonly #rewinds: RewindSeen[] = [];
  /** The latest offset of each turn start and rewind by id: what a later rewind may name as its point. */
  readonly #points = new Map<string, number>();
  #rewound: RewoundTurns | undefined;
  readonly #info: LineInfo = {
    kind: "other",
    role: undefined,
    turn: 0,
    copy: false,
    ts: "",
    tsStart: 0,
    tsEnd: 0,
  };

  /**
   * Classifies the line `chunk.bytes[start..end)`, updating the structure. A message line as panto
   * writes it is read by its first bytes and its last few alone (the bulk of a session's bytes),
   * but for a user message that starts a turn; any other line is parsed whole. The returned object
   * is reused for the next line.
   */
  see(chunk: LineChunk, start: number, end: number): LineInfo {
    const offset = chunk.offset + start;
    if (offset === 0) return this.#other();
    const { bytes } = chunk;
    if (holdsAt(bytes, start, end, MESSAGE_PREFIX)) {
      const info = this.#messageHead(bytes, start, end, offset);
      if (info !== undefined) return info;
    } else if (holdsAt(bytes, start, end, TYPE_PREFIX)) {
      const typeStart = start + TYPE_PREFIX.length;
      const typeEnd = plainStringEnd(bytes, typeStart, Math.min(end, typeStart + 40));
      if (typeEnd !== -1 && IGNORED_TYPES.has(bytes.toString("latin1", typeStart, typeEnd)))
        return this.#other();
    }
    const parsed = parseSessionLine(bytes.toString("utf8", start, end));
    if (parsed.kind !== "entry") return this.#other();
    return this.seeEntry(parsed.entry, offset);
  }

  /** The time of a message line `see` just classified. */
  timeOf(chunk: LineChunk, info: LineInfo): string {
    return info.tsEnd > info.tsStart ? chunk.bytes.toString("latin1", info.tsStart, info.tsEnd) : info.ts;
  }

  /** A message line read by its first and last bytes; undefined when it is not written as panto writes. */
  #messageHead(bytes: Buffer, start: number, end: number, offset: number): LineInfo | undefined {
    const idStart = start + MESSAGE_PREFIX.length;
    const idEnd = plainStringEnd(bytes, idStart, Math.min(end, idStart + 200));
    if (idEnd === -1 || !holdsAt(bytes, idEnd, end, TS_KEY)) return undefined;
    const tsStart = idEnd + TS_KEY.length;
    const tsEnd = plainStringEnd(bytes, tsStart, Math.min(end, tsStart + 200));
    if (tsEnd === -1 || !holdsAt(bytes, tsEnd, end, ROLE_KEY)) return undefined;
    const roleAt = tsEnd + ROLE_KEY.length;
    const role = ROLES.find((candidate) => holdsAt(bytes, roleAt, end, candidate.bytes))?.name;
    if (role === undefined) return undefined;
    // A kept copy ends `"keptBy":"<id>"}`; any other message line ends `}}` (a line cut short ends
    // neither way). A user message that is no copy starts a turn: it is parsed whole, as the
    // session store reads it, so a damaged one starts none here either.
    const keptBy = bytes[end - 2] === QUOTE ? keptByAt(bytes, Math.max(roleAt, end - 64), end) : undefined;
    if (role === "user" && keptBy === undefined) return undefined;
    // A line that names a user role again later may say "message" twice, and JSON's last key
    // wins: the store reads a user message there, which starts a turn. Parse such a line whole
    // (a fuzz find; panto writes no such line, so this costs one byte search of the rest).
    if (role !== "user" && bytes.subarray(roleAt, end).includes(USER_ROLE)) return undefined;
    const id = role === "user" ? bytes.toString("latin1", idStart, idEnd) : "";
    const info = this.#message(role, id, offset, keptBy);
    info.tsStart = tsStart;
    info.tsEnd = tsEnd;
    return info;
  }

  /** The same for an entry already parsed. */
  seeEntry(entry: SessionEntry, offset: number): LineInfo {
    if (entry.type === "message") {
      const info = this.#message(
        entry.message.role,
        entry.id.toLowerCase(),
        offset,
        entry.keptBy?.toLowerCase(),
      );
      info.ts = entry.ts;
      return info;
    }
    if (STRUCTURAL_TYPES.has(entry.type)) this.#structural(entry, offset);
    return this.#other();
  }

  /** How turn `turn` stands now: left out of replay (and why), summarised, or in the context. */
  status(turn: number): TurnStatus {
    const dropped = this.#dropped.get(turn);
    if (dropped !== undefined) return dropped;
    if (this.#rewoundTurns().turns.has(turn)) return "rewound";
    const through = this.summarisedThrough();
    return through !== undefined && turn <= through ? "summarised" : "in context";
  }

  /** The last turn the compaction in effect stands for; undefined when none is in effect. */
  summarisedThrough(): number | undefined {
    const { inRange } = this.#rewoundTurns();
    const undone = (id: string) => (this.#undone.get(id) ?? []).some((offset) => !inRange(offset));
    const inEffect = this.#compactions.findLast(
      (seen) =>
        !inRange(seen.offset) &&
        !undone(seen.id) &&
        (seen.keptMessages === undefined || seen.copies >= seen.keptMessages),
    );
    if (inEffect === undefined) return undefined;
    // Written before turns were numbered: its user copies are taken for the turns just before it.
    return inEffect.through ?? inEffect.turn - inEffect.userCopies;
  }

  #rewoundTurns(): RewoundTurns {
    this.#rewound ??= rewoundTurns(this.#rewinds, this.turnStarts);
    return this.#rewound;
  }

  #other(): LineInfo {
    const info = this.#info;
    info.kind = "other";
    info.role = undefined;
    info.turn = this.turn;
    info.copy = false;
    return info;
  }

  #message(
    role: "user" | "assistant" | "tool",
    id: string,
    offset: number,
    keptBy: string | undefined,
  ): LineInfo {
    const info = this.#info;
    info.kind = "message";
    info.role = role;
    info.copy = keptBy !== undefined;
    info.ts = "";
    info.tsStart = 0;
    info.tsEnd = 0;
    if (keptBy !== undefined) {
      const seen = this.#byId.get(keptBy);
      if (seen !== undefined) {
        seen.copies++;
        if (role === "user") {
          this.#userTurns.set(id, seen.kept?.[seen.userCopies] ?? this.turn);
          seen.userCopies++;
        }
      }
    } else if (role === "user") {
      this.turn++;
      this.turnStarts.push(offset);
      this.#userTurns.set(id, this.turn);
      this.#points.set(id, offset);
    }
    info.turn = this.turn;
    return info;
  }

  #structural(entry: SessionEntry, offset: number): void {
    if (entry.type === "compaction") {
      const seen: CompactionSeen = {
        id: entry.id,
        offset,
        copies: 0,
        userCopies: 0,
        turn: this.turn,
        ...(entry.turns === undefined ? {} : { through: entry.turns.through, kept: entry.turns.kept }),
        ...(entry.keptMessages === undefined ? {} : { keptMessages: entry.keptMessages }),
      };
      this.#compactions.push(seen);
      this.#byId.set(seen.id, seen);
      return;
    }
    if (entry.type === "uncompact") {
      this.#undone.set(entry.compactionId, [...(this.#undone.get(entry.compactionId) ?? []), offset]);
      return;
    }
    if (entry.type === "rewind") {
      const id = entry.id.toLowerCase();
      if (entry.scope !== "code") {
        const point = this.#points.get(entry.firstEntryId.toLowerCase());
        this.#rewinds.push({ offset, ...(point === undefined ? {} : { point }) });
        this.#rewound = undefined;
      }
      this.#points.set(id, offset);
      return;
    }
    const dropped = droppedTurns(entry, (id) => this.#userTurns.get(id), this.turn);
    for (const turn of dropped?.turns ?? []) this.#dropped.set(turn, dropped?.reason ?? "failed");
  }
}

/** The compaction id a kept copy's last bytes name (`"keptBy":"<id>"}`), looked for in `bytes[from..end)`. */
function keptByAt(bytes: Buffer, from: number, end: number): string | undefined {
  const at = bytes.subarray(from, end).lastIndexOf(KEPT_KEY);
  return at === -1 ? undefined : bytes.toString("latin1", from + at + KEPT_KEY.length, end - 2);
}

interface RewindSeen {
  offset: number;
  /** The offset of the entry it names; absent when that is not before it (replay ignores it). */
  point?: number;
}

interface RewoundTurns {
  turns: ReadonlySet<number>;
  inRange(offset: number): boolean;
}

/**
 * The turns rewinds take out of the context, by replay's rule (src/session/rewound-ranges.ts): from
 * the latest rewind back, each takes out everything from its point through itself, unless a later
 * one already took it out (an undone rewind: what it dropped comes back).
 */
export function rewoundTurns(rewinds: readonly RewindSeen[], turnStarts: readonly number[]): RewoundTurns {
  const ranges: Array<{ from: number; to: number }> = [];
  let coveredFrom = Number.POSITIVE_INFINITY;
  for (let index = rewinds.length - 1; index >= 0; index--) {
    const rewind = rewinds[index] as RewindSeen;
    if (rewind.offset >= coveredFrom || rewind.point === undefined) continue;
    ranges.push({ from: rewind.point, to: rewind.offset });
    coveredFrom = rewind.point;
  }
  const inRange = (offset: number) => ranges.some((range) => offset >= range.from && offset <= range.to);
  const turns = new Set<number>();
  for (let turn = 1; turn < turnStarts.length; turn++)
    if (inRange(turnStarts[turn] as number)) turns.add(turn);
  return { turns, inRange };
}
