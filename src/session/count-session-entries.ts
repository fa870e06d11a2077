import type { FileHandle } from "node:fs/promises";

/** Turns (user messages) and compactions found in a byte range of a session file. */
export interface EntryCounts {
  turns: number;
  compactions: number;
}

/** Where counting stopped: the byte after the last complete line, so a later count resumes there. */
export interface RangeCount extends EntryCounts {
  end: number;
}

const READ_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;
/** Long enough to hold `{"type":"message","id":…,"ts":…,"message":{"role":"user"` as panto writes it. */
const LINE_START_BYTES = 160;
const USER_MESSAGE = /^\{"type":"message","id":"[^"]*","ts":"[^"]*","message":\{"role":"user"/;
const COMPACTION = /^\{"type":"compaction"/;
/** Copies of kept messages written with a compaction end with their `keptBy`: not new turns. */
const KEPT_COPY = /"keptBy":"[^"]*"\}$/;

/** Whether a line (or its first bytes) is a user message as panto writes it (kept copies included). */
export function isUserMessageStart(lineStart: string): boolean {
  return USER_MESSAGE.test(lineStart);
}

/**
 * Counts the entries of complete lines in `buffer` by their first bytes, without parsing the JSON:
 * panto writes every entry with `type` first (JSON.stringify keeps insertion order), so a 10 MB
 * history is counted in milliseconds. Returns the counts and the offset after the last "\n".
 */
export function countEntriesInBuffer(buffer: Buffer): RangeCount {
  const counts: RangeCount = { turns: 0, compactions: 0, end: 0 };
  let start = 0;
  for (let newline = buffer.indexOf(NEWLINE); newline !== -1; newline = buffer.indexOf(NEWLINE, start)) {
    const head = buffer.toString("latin1", start, Math.min(newline, start + LINE_START_BYTES));
    if (COMPACTION.test(head)) counts.compactions++;
    else if (USER_MESSAGE.test(head)) {
      const tail = buffer.toString("latin1", Math.max(start, newline - 40), newline);
      if (!KEPT_COPY.test(tail)) counts.turns++;
    }
    start = newline + 1;
    counts.end = start;
  }
  return counts;
}

/** Counts the complete lines between byte `start` and byte `end` of `file`, reading 1 MB at a time. */
export async function countEntriesInRange(file: FileHandle, start: number, end: number): Promise<RangeCount> {
  const total: RangeCount = { turns: 0, compactions: 0, end: start };
  let carry = Buffer.alloc(0);
  let position = start;
  while (position < end) {
    const chunk = Buffer.allocUnsafe(Math.min(READ_BYTES, end - position));
    const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
    if (bytesRead === 0) break;
    const buffer =
      carry.length === 0
        ? chunk.subarray(0, bytesRead)
        : Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
    const bufferStart = position - carry.length;
    const counted = countEntriesInBuffer(buffer);
    total.turns += counted.turns;
    total.compactions += counted.compactions;
    if (counted.end > 0) total.end = bufferStart + counted.end;
    carry = Buffer.from(buffer.subarray(counted.end));
    position += bytesRead;
  }
  return total;
}
