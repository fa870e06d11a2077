import { open } from "node:fs/promises";
import type { AssistantMessage, CompactionRecord, Message } from "../core/index.js";
import type { SessionEntry, SessionHeader } from "../session/index.js";

/** Bytes of history generated once and written over and over (with fresh ids) to reach the size. */
const BLOCK_BYTES = 4 * 1024 * 1024;
/** A compaction every this many turns, so the history holds many superseded ones. */
const TURNS_PER_COMPACTION = 40;
/** Turns after the latest compaction: with kept copies and tool calls, about 200 entries. */
const TAIL_TURNS = 36;
const TS = "2025-06-01T09:00:00.000Z";

/** A small deterministic generator, so every run writes the same bytes. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const CODE_LINES = [
  "export function parseDate(text: string): DateParts {",
  '  const [year, month, day] = text.split("-").map(Number);',
  '  if (!Number.isInteger(year)) throw new RangeError("bad year in " + text);',
  "  return { year, month, day };",
  "}",
  'import { describe, expect, it } from "vitest";',
  '  it("formats a date with zero-padded months", () => {',
  '    expect(formatDate({ year: 2024, month: 3, day: 1 })).toBe("2024-03-01");',
  "  });",
  "// Months are calendar months (1-12); the old zero-based API is gone since v2.",
  '{"name":"datekit","version":"2.3.1","type":"module","scripts":{"test":"vitest run"}}',
  "  日付の書式: YYYY-MM-DD (ISO 8601)",
];

function codeText(random: () => number, lines: number): string {
  return Array.from({ length: lines }, () => CODE_LINES[Math.floor(random() * CODE_LINES.length)]).join("\n");
}

function assistantMessage(content: AssistantMessage["content"], random: () => number): AssistantMessage {
  const promptTokens = 2000 + Math.floor(random() * 150_000);
  const outputTokens = 20 + Math.floor(random() * 900);
  return {
    role: "assistant",
    content,
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    usage: {
      promptTokens,
      outputTokens,
      resentOutputTokens: outputTokens,
      cacheReadTokens: promptTokens - 1800,
    },
    stopReason: content.some((block) => block.type === "tool-call") ? "tool-use" : "stop",
  };
}

/** One coding turn: a request, a few tool calls with results, and an answer. */
function syntheticTurn(random: () => number, turn: number): Message[] {
  const messages: Message[] = [
    { role: "user", content: [{ type: "text", text: `Step ${turn}: ${codeText(random, 2)}` }] },
  ];
  const calls = 1 + Math.floor(random() * 3);
  for (let index = 0; index < calls; index++) {
    const id = `toolu_${turn}_${index}`;
    const path = `src/module-${Math.floor(random() * 90)}.ts`;
    messages.push(
      assistantMessage(
        [
          { type: "thinking", text: codeText(random, 1), signature: "EqQBCkYIBRgCKkB" },
          { type: "tool-call", id, name: "read", arguments: { path } },
        ],
        random,
      ),
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: id,
            toolName: "read",
            content: [{ type: "text", text: codeText(random, 10 + Math.floor(random() * 60)) }],
            isError: false,
          },
        ],
      },
    );
  }
  messages.push(assistantMessage([{ type: "text", text: codeText(random, 3) }], random));
  return messages;
}

function compactionRecord(random: () => number, turns: number): CompactionRecord {
  return {
    summary: `## Goal\n${codeText(random, 30)}`,
    trigger: random() < 0.5 ? "overflow" : "manual",
    model: "anthropic/claude-sonnet-4-5",
    fellBack: false,
    turnsSummarised: turns,
    turnsKept: 2,
    tokensSummarised: 150_000,
    tokensKept: 9_000,
    summaryTokens: 1_200,
    sizeSources: { usage: turns, estimate: 0 },
  };
}

/** Writes the entries of `turnCount` turns with a compaction (keeping the last 2 turns) every so often. */
function historyEntries(random: () => number, turnCount: number, nextId: () => string): SessionEntry[] {
  const entries: SessionEntry[] = [];
  const recent: Message[][] = [];
  const message = (value: Message): SessionEntry => ({
    type: "message",
    id: nextId(),
    ts: TS,
    message: value,
  });
  for (let turn = 0; turn < turnCount; turn++) {
    const messages = syntheticTurn(random, turn);
    recent.push(messages);
    entries.push(...messages.map(message));
    if ((turn + 1) % TURNS_PER_COMPACTION === 0) {
      entries.push({
        type: "compaction",
        id: nextId(),
        ts: TS,
        ...compactionRecord(random, TURNS_PER_COMPACTION),
      });
      entries.push(...recent.slice(-2).flat().map(message));
      recent.length = 0;
    }
  }
  return entries;
}

/**
 * One block of history as bytes, with the position of every id so each copy of the block gets
 * fresh ids (ids are `<4 hex block number><4 hex entry number>`, unique within the file).
 */
function historyBlock(random: () => number): { bytes: Buffer; idOffsets: number[] } {
  let counter = 0;
  const nextId = () => `@@@@${(counter++ & 0xffff).toString(16).padStart(4, "0")}`;
  const lines: string[] = [];
  let size = 0;
  while (size < BLOCK_BYTES) {
    for (const entry of historyEntries(random, TURNS_PER_COMPACTION, nextId)) {
      const line = `${JSON.stringify(entry)}\n`;
      lines.push(line);
      size += Buffer.byteLength(line);
    }
  }
  const bytes = Buffer.from(lines.join(""), "utf8");
  const idOffsets: number[] = [];
  for (let at = bytes.indexOf('"id":"@@@@'); at !== -1; at = bytes.indexOf('"id":"@@@@', at + 1)) {
    idOffsets.push(at + 6);
  }
  return { bytes, idOffsets };
}

/** The part of a block that fits in `room` bytes, cut at a line end. */
function cutAtLine(bytes: Buffer, room: number): Buffer {
  if (room >= bytes.length) return bytes;
  const end = bytes.lastIndexOf(0x0a, room - 1);
  return bytes.subarray(0, end + 1);
}

/** The latest compaction near the end, then about 200 entries after it. */
function tailBytes(random: () => number): { bytes: Buffer; activeEntries: number } {
  let counter = 0;
  const nextId = () => `ffff${(counter++).toString(16).padStart(4, "0")}`;
  const kept = [syntheticTurn(random, 1), syntheticTurn(random, 2)].flat();
  const entries: SessionEntry[] = [
    { type: "compaction", id: nextId(), ts: TS, ...compactionRecord(random, 40) },
    ...kept.map((message): SessionEntry => ({ type: "message", id: nextId(), ts: TS, message })),
  ];
  for (let turn = 0; turn < TAIL_TURNS; turn++) {
    for (const message of syntheticTurn(random, 1000 + turn))
      entries.push({ type: "message", id: nextId(), ts: TS, message });
  }
  const text = entries.map((entry) => `${JSON.stringify(entry)}\n`).join("");
  return { bytes: Buffer.from(text, "utf8"), activeEntries: entries.length };
}

/**
 * Writes a realistic session file of about `sizeBytes`: coding turns with tool calls, many
 * compactions along the way, and the latest compaction near the end. Fast even for gigabytes: one
 * block is generated and written repeatedly with large writes, only its ids changed per copy.
 * Returns how many entries the active suffix holds.
 */
export async function writeSyntheticSession(
  path: string,
  sizeBytes: number,
): Promise<{ activeEntries: number }> {
  const random = seededRandom(42);
  const header: SessionHeader = {
    type: "session",
    version: 1,
    id: "bench-session",
    created: TS,
    cwd: "/bench",
  };
  const tail = tailBytes(random);
  const block = historyBlock(random);
  const file = await open(path, "w", 0o600);
  try {
    const headerLine = `${JSON.stringify(header)}\n`;
    await file.write(headerLine);
    let room = sizeBytes - Buffer.byteLength(headerLine) - tail.bytes.length;
    for (let blockNumber = 0; room > 0; blockNumber++) {
      const stamp = (blockNumber & 0xffff).toString(16).padStart(4, "0");
      for (const offset of block.idOffsets) block.bytes.write(stamp, offset, "latin1");
      const part = cutAtLine(block.bytes, room);
      if (part.length === 0) break;
      await file.write(part);
      room -= part.length;
    }
    await file.write(tail.bytes);
  } finally {
    await file.close();
  }
  return { activeEntries: tail.activeEntries };
}
