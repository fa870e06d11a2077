import {
  entryShape,
  parseSessionLine,
  type SessionEntry,
  SessionModel,
  type TurnStatus,
} from "../session/index.js";
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

export type { TurnStatus };

/** The first bytes of a message line as panto writes it (JSON.stringify keeps key order). */
const MESSAGE_PREFIX = Buffer.from('{"type":"message","id":"');
const TS_KEY = Buffer.from('","ts":"');
const ROLE_KEY = Buffer.from('","message":{"role":"');
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
const BRACE = 0x7d;
const BACKSLASH = 0x5c;
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

/**
 * Follows a session file line by line, by the first bytes of each line wherever panto wrote it
 * (any other line is parsed whole), and feeds what each line is to the session model
 * (src/session/session-model.ts): so turns are numbered, and each turn stands (in context,
 * summarised, failed, rewound), exactly as replay has them, and a hit can say how its turn stands.
 */
export class SessionStructure {
  readonly #model = new SessionModel();
  /** File offset of each turn's user message, by turn number (index 0 unused). */
  readonly turnStarts: number[] = [0];
  readonly #info: LineInfo = {
    kind: "other",
    role: undefined,
    turn: 0,
    copy: false,
    ts: "",
    tsStart: 0,
    tsEnd: 0,
  };

  /** The turns seen so far (the latest turn's number). */
  get turn(): number {
    return this.#model.turns.length;
  }

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
    // neither way, and is parsed whole). A user message that is no copy starts a turn: it is
    // parsed whole, as the session store reads it, so a damaged one starts none here either.
    const keptBy = bytes[end - 2] === QUOTE ? keptByAt(bytes, Math.max(roleAt, end - 64), end) : undefined;
    if (keptBy === undefined && (role === "user" || bytes[end - 1] !== BRACE || bytes[end - 2] !== BRACE))
      return undefined;
    // A line that names a user role again later may say "message" twice, and JSON's last key
    // wins: the store reads a user message there, which starts a turn. Parse such a line whole
    // (a fuzz find; panto writes no such line, so this costs one byte search of the rest).
    if (role !== "user" && bytes.subarray(roleAt, end).includes(USER_ROLE)) return undefined;
    const id = bytes.toString("latin1", idStart, idEnd);
    const info = this.#message(role, id, offset, keptBy);
    info.tsStart = tsStart;
    info.tsEnd = tsEnd;
    return info;
  }

  /** The same for an entry already parsed. */
  seeEntry(entry: SessionEntry, offset: number): LineInfo {
    if (entry.type === "message") {
      const info = this.#message(entry.message.role, entry.id, offset, entry.keptBy);
      info.ts = entry.ts;
      return info;
    }
    this.#model.apply(entryShape(entry), offset);
    return this.#other();
  }

  /** Whether a clearing in force holds a stub for the result of call `toolCallId` in the message line at `offset`. */
  cleared(offset: number, toolCallId: string): boolean {
    return this.#model.view().clearedBy(offset, toolCallId, undefined) !== undefined;
  }

  /** How turn `turn` stands now: left out of replay (and why), summarised, or in the context. */
  status(turn: number): TurnStatus {
    return this.#model.view().status(turn);
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
    this.#model.apply(
      keptBy === undefined ? { type: "message", id, role } : { type: "message", id, role, keptBy },
      offset,
    );
    if (keptBy === undefined && role === "user") this.turnStarts.push(offset);
    info.turn = this.turn;
    return info;
  }
}

/** The compaction id a kept copy's last bytes name (`"keptBy":"<id>"}`), looked for in `bytes[from..end)`. */
function keptByAt(bytes: Buffer, from: number, end: number): string | undefined {
  const at = bytes.subarray(from, end).lastIndexOf(KEPT_KEY);
  return at === -1 ? undefined : bytes.toString("latin1", from + at + KEPT_KEY.length, end - 2);
}
