import { parseSessionLine, type SessionEntry } from "../session/index.js";
import { DROPPING_TYPES, type DropReason, droppedTurns } from "./dropped-turns.js";

/** What one line of a session file is, as far as recall cares. */
export type LineInfo =
  | {
      kind: "message";
      role: "user" | "assistant" | "tool";
      id: string;
      ts: string;
      /** The turn it belongs to (0 before the first user message). */
      turn: number;
      /** A kept copy written with a compaction: it repeats a turn, so it is not searched or read. */
      copy: boolean;
    }
  | { kind: "other"; turn: number };

/** How a turn stands in the current context. */
export type TurnStatus = DropReason | "summarised" | "in context";

/** The first bytes of a message line as panto writes it (JSON.stringify keeps key order). */
const MESSAGE_HEAD =
  /^\{"type":"message","id":"([^"\\]*)","ts":"([^"\\]*)","message":\{"role":"(user|assistant|tool)"/;
const TYPE_HEAD = /^\{"type":"([^"\\]*)"/;
/** A kept copy ends with its `keptBy` (written last). */
const KEPT_TAIL = /"keptBy":"([^"\\]*)"\}$/;
const HEAD_BYTES = 200;
const TAIL_BYTES = 48;
/** Entry types whose content recall reads: the rest are looked at only by their first bytes. */
const STRUCTURAL_TYPES: ReadonlySet<string> = new Set(["compaction", "uncompact", ...DROPPING_TYPES]);
/** Entry types that say nothing about turns, skipped by their first bytes. */
const IGNORED_TYPES: ReadonlySet<string> = new Set(["pin", "unpin", "model", "window", "compaction-failed"]);

interface CompactionSeen {
  id: string;
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
  /** Time of each turn's user message, by turn number. */
  readonly turnTimes: string[] = [""];
  readonly #userTurns = new Map<string, number>();
  readonly #dropped = new Map<number, DropReason>();
  readonly #compactions: CompactionSeen[] = [];
  readonly #byId = new Map<string, CompactionSeen>();
  readonly #undone = new Set<string>();

  /** Classifies the line `bytes[start..end)` found at file offset `offset`, updating the structure. */
  see(bytes: Buffer, start: number, end: number, offset: number): LineInfo {
    if (offset === 0) return { kind: "other", turn: this.turn };
    const head = bytes.toString("latin1", start, Math.min(end, start + HEAD_BYTES));
    const message = MESSAGE_HEAD.exec(head);
    if (message !== null) {
      const tail = bytes.toString("latin1", Math.max(start, end - TAIL_BYTES), end);
      const copy = KEPT_TAIL.exec(tail)?.[1];
      return this.#message(message[3] as "user", message[1] as string, message[2] as string, offset, copy);
    }
    const type = TYPE_HEAD.exec(head)?.[1];
    if (type !== undefined && IGNORED_TYPES.has(type)) return { kind: "other", turn: this.turn };
    const parsed = parseSessionLine(bytes.toString("utf8", start, end));
    if (parsed.kind !== "entry") return { kind: "other", turn: this.turn };
    return this.seeEntry(parsed.entry, offset);
  }

  /** The same for an entry already parsed. */
  seeEntry(entry: SessionEntry, offset: number): LineInfo {
    if (entry.type === "message")
      return this.#message(entry.message.role, entry.id, entry.ts, offset, entry.keptBy);
    if (STRUCTURAL_TYPES.has(entry.type)) this.#structural(entry);
    return { kind: "other", turn: this.turn };
  }

  /** How turn `turn` stands now: left out of replay (and why), summarised, or in the context. */
  status(turn: number): TurnStatus {
    const dropped = this.#dropped.get(turn);
    if (dropped !== undefined) return dropped;
    const through = this.summarisedThrough();
    return through !== undefined && turn <= through ? "summarised" : "in context";
  }

  /** The last turn the compaction in effect stands for; undefined when none is in effect. */
  summarisedThrough(): number | undefined {
    const inEffect = this.#compactions.findLast(
      (seen) =>
        !this.#undone.has(seen.id) && (seen.keptMessages === undefined || seen.copies >= seen.keptMessages),
    );
    if (inEffect === undefined) return undefined;
    // Written before turns were numbered: its user copies are taken for the turns just before it.
    return inEffect.through ?? inEffect.turn - inEffect.userCopies;
  }

  #message(
    role: "user" | "assistant" | "tool",
    id: string,
    ts: string,
    offset: number,
    keptBy: string | undefined,
  ): LineInfo {
    if (keptBy !== undefined) {
      const seen = this.#byId.get(keptBy);
      if (seen !== undefined) {
        seen.copies++;
        if (role === "user") {
          const number = seen.kept?.[seen.userCopies] ?? this.turn;
          seen.userCopies++;
          this.#userTurns.set(id, number);
        }
      }
      return { kind: "message", role, id, ts, turn: this.turn, copy: true };
    }
    if (role === "user") {
      this.turn++;
      this.turnStarts.push(offset);
      this.turnTimes.push(ts);
      this.#userTurns.set(id, this.turn);
    }
    return { kind: "message", role, id, ts, turn: this.turn, copy: false };
  }

  #structural(entry: SessionEntry): void {
    if (entry.type === "compaction") {
      const seen: CompactionSeen = {
        id: entry.id,
        copies: 0,
        userCopies: 0,
        turn: this.turn,
        ...(entry.turns === undefined ? {} : { through: entry.turns.through, kept: entry.turns.kept }),
        ...(entry.keptMessages === undefined ? {} : { keptMessages: entry.keptMessages }),
      };
      this.#compactions.push(seen);
      this.#byId.set(entry.id, seen);
      return;
    }
    if (entry.type === "uncompact") {
      this.#undone.add(entry.compactionId);
      return;
    }
    const dropped = droppedTurns(entry, (id) => this.#userTurns.get(id), this.turn);
    for (const turn of dropped?.turns ?? []) this.#dropped.set(turn, dropped?.reason ?? "failed");
  }
}
