import type { ContentBlock } from "../core/index.js";
import { parseSessionLine, type SessionEntry } from "../session/index.js";
import { RECALL_TOOL_NAME } from "./entry-blocks.js";
import type { RecallSource } from "./recall-sources.js";
import { lineEnd, scanLines } from "./scan-lines.js";
import { SessionStructure, type TurnStatus } from "./session-structure.js";

/** Characters one read returns at most; a longer reading is paged by `offset`. */
export const READ_CHARS = 16_000;

export interface ReadRequest {
  from: number;
  to: number;
  /** Characters of the rendered turns to skip (paging). */
  offset: number;
  /** Characters to return at most. */
  chars: number;
  signal?: AbortSignal;
}

/** One page of turns read back. */
export type ReadResult =
  | {
      ok: true;
      text: string;
      /** Where the next page starts, when there is more. */
      next?: number;
      /** How many turns the session holds. */
      turns: number;
      from: number;
      to: number;
    }
  | { ok: false; message: string };

/**
 * Reads turns `from` to `to` of a session back as text, in file order, whatever replay keeps:
 * every message of those turns (kept copies not repeated), each turn headed by its number, time
 * and how it stands (summarised, failed, in context), and notes where a compaction, an undo or a
 * failure was written. Finds the turns with one pass over the lines' first bytes, then renders only
 * those turns, and only as far as the page reaches.
 */
export async function readTurns(source: RecallSource, request: ReadRequest): Promise<ReadResult> {
  const structure = new SessionStructure();
  const signal = request.signal === undefined ? {} : { signal: request.signal };
  // A complete last entry without its newline counts, as resuming keeps it.
  await scanLines(source.path, { ...signal, partialLast: true }, (chunk) => {
    for (let line = 0; line < chunk.starts.length; line++) {
      const start = chunk.starts[line] as number;
      const end = lineEnd(chunk, line);
      if (end > start) structure.see(chunk, start, end);
    }
  });
  const turns = Math.min(structure.turn, source.throughTurn ?? structure.turn);
  if (turns === 0) return { ok: false, message: "the session has no turns yet" };
  if (request.from > turns || request.to < request.from)
    return {
      ok: false,
      message: `no turn ${request.from}${request.to > request.from ? ` to ${request.to}` : ""}: the session has turns 1 to ${turns}`,
    };
  const to = Math.min(request.to, turns);
  const page = new Page(request.offset, request.chars);
  let turn = request.from - 1;
  await scanLines(
    source.path,
    {
      from: structure.turnStarts[request.from] as number,
      ...(structure.turnStarts[to + 1] === undefined ? {} : { to: structure.turnStarts[to + 1] as number }),
      ...signal,
      partialLast: true,
    },
    (chunk) => {
      for (let line = 0; line < chunk.starts.length && !page.full; line++) {
        const start = chunk.starts[line] as number;
        const parsed = parseSessionLine(chunk.bytes.toString("utf8", start, lineEnd(chunk, line)));
        if (parsed.kind !== "entry") continue;
        const entry = parsed.entry;
        if (entry.type === "message" && entry.message.role === "user" && entry.keptBy === undefined) {
          turn++;
          page.add(turnHeading(turn, entry.ts, structure.status(turn), source.relation !== undefined));
        }
        for (const text of renderEntry(entry)) page.add(text);
      }
    },
  );
  return { ok: true, text: page.text(), ...page.nextOffset(), turns, from: request.from, to };
}

function turnHeading(turn: number, ts: string, status: TurnStatus, parent: boolean): string {
  const how =
    parent && (status === "in context" || status === "summarised")
      ? "in the parent session"
      : status === "in context"
        ? "in the context verbatim"
        : status === "summarised"
          ? "summarised: only the summary stands for it in the context"
          : status === "failed"
            ? "failed: replay leaves it out"
            : "rewound: replay leaves it out";
  return `\n=== Turn ${turn} · ${formatTurnTime(ts)} · ${how} ===`;
}

/** "2026-12-04 10:31 UTC" from an ISO time. */
export function formatTurnTime(ts: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(ts) ? `${ts.slice(0, 10)} ${ts.slice(11, 16)} UTC` : ts;
}

function renderEntry(entry: SessionEntry): string[] {
  switch (entry.type) {
    case "message":
      return entry.keptBy === undefined
        ? entry.message.content.flatMap((block) => renderBlock(block, entry.message.role))
        : [];
    case "turn-failed":
      return [`(This turn failed for good here, ${entry.code}: ${entry.error})`];
    case "compaction":
      return [
        `(A compaction was written here: ${entry.turnsSummarised} turns summarised, ${entry.turnsKept} kept verbatim.)`,
      ];
    case "uncompact":
      return ["(The compaction in effect was undone here.)"];
    default:
      return [];
  }
}

function renderBlock(block: ContentBlock, role: string): string[] {
  switch (block.type) {
    case "text":
      return [`[${role === "user" ? "User" : "Assistant"}]: ${block.text}`];
    case "thinking":
      return block.text === "" ? [] : [`[Assistant thinking]: ${block.text}`];
    case "image":
      return [`[image: ${block.mediaType}]`];
    case "tool-call":
      return block.name === RECALL_TOOL_NAME
        ? []
        : [`[Tool call] ${block.name}: ${JSON.stringify(block.arguments)}`];
    case "tool-result": {
      if (block.toolName === RECALL_TOOL_NAME) return [];
      const text = block.content.map((part) =>
        part.type === "text" ? part.text : `[image: ${part.mediaType}]`,
      );
      return [`[Tool result] ${block.toolName}${block.isError ? " (error)" : ""}: ${text.join("\n")}`];
    }
    default:
      return [];
  }
}

/** The rendered text from `offset` on, up to `chars` characters, and whether more follows. */
class Page {
  #skipped = 0;
  #parts: string[] = [];
  #length = 0;
  #more = false;

  constructor(
    private readonly offset: number,
    private readonly chars: number,
  ) {}

  get full(): boolean {
    return this.#more;
  }

  add(text: string): void {
    let piece = `${text}\n`;
    if (this.#skipped < this.offset) {
      const skip = Math.min(piece.length, this.offset - this.#skipped);
      this.#skipped += skip;
      piece = piece.slice(skip);
    }
    if (piece === "") return;
    const room = this.chars - this.#length;
    if (piece.length > room) {
      this.#parts.push(piece.slice(0, room));
      this.#length += room;
      this.#more = true;
      return;
    }
    this.#parts.push(piece);
    this.#length += piece.length;
  }

  text(): string {
    return this.#parts.join("").replace(/^\n+/, "");
  }

  nextOffset(): { next?: number } {
    return this.#more ? { next: this.offset + this.#length } : {};
  }
}
