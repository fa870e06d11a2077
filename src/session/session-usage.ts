import { createReadStream } from "node:fs";
import type { Usage } from "../core/index.js";

/** Tokens as providers bill them: `input` is the uncached part of the prompt. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  /** The part of cacheWrite written to the one-hour cache (priced apart); absent when none was. */
  longCacheWrite?: number;
}

/** A session's usage by "provider/model": the agent's own requests, and compaction's summary requests apart. */
export interface SessionUsage {
  chat: Record<string, TokenCounts>;
  compaction: Record<string, TokenCounts>;
}

/**
 * Totals the usage every request of a session reported, from the whole file (resumed history
 * included): assistant messages (their copies kept by a compaction not counted twice) and the
 * summary requests recorded with each compaction. Unparsable lines count for nothing.
 */
export function sumSessionUsage(text: string): SessionUsage {
  const totals: SessionUsage = { chat: {}, compaction: {} };
  for (const line of text.split("\n")) if (line.includes(USAGE_KEY)) addLine(totals, line);
  return totals;
}

/** The key every line with usage carries; inside a JSON string its quotes would be escaped. */
const USAGE_KEY = '"usage"';
const USAGE_BYTES = Buffer.from(USAGE_KEY);
const NEWLINE = 0x0a;
const CHUNK_BYTES = 4 * 1024 * 1024;

function addLine(totals: SessionUsage, line: string): void {
  const entry = parseLine(line);
  if (entry === undefined) return;
  if (entry.type === "message" && entry.keptBy === undefined) addMessage(totals, entry.message);
  else if (entry.type === "compaction" && entry.trigger !== "edited" && Array.isArray(entry.usage))
    for (const item of entry.usage) addUsage(totals.compaction, item?.model, item);
}

/**
 * Totals usage from a file fed chunk by chunk. The lines that hold the usage key are found by a
 * native byte search, so the tool output that makes up most of a history is never decoded.
 */
class UsageScanner {
  readonly totals: SessionUsage = { chat: {}, compaction: {} };
  #carry: Buffer = Buffer.alloc(0);

  feed(chunk: Buffer): void {
    const buffer = this.#carry.length === 0 ? chunk : Buffer.concat([this.#carry, chunk]);
    const end = buffer.lastIndexOf(NEWLINE) + 1;
    let found = buffer.indexOf(USAGE_BYTES);
    while (found !== -1 && found < end) {
      const start = buffer.lastIndexOf(NEWLINE, found) + 1;
      const stop = buffer.indexOf(NEWLINE, found);
      addLine(this.totals, buffer.toString("utf8", start, stop));
      found = buffer.indexOf(USAGE_BYTES, stop + 1);
    }
    this.#carry = Buffer.from(buffer.subarray(end));
  }

  finish(): SessionUsage {
    if (this.#carry.includes(USAGE_BYTES)) addLine(this.totals, this.#carry.toString("utf8"));
    return this.totals;
  }
}

/** `sumSessionUsage` of the file at `path`, streamed 4 MB at a time; a missing or unreadable file has no usage. */
export async function readSessionUsage(path: string): Promise<SessionUsage> {
  const scanner = new UsageScanner();
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES }))
      scanner.feed(chunk as Buffer);
  } catch {
    // What was read so far counts; the rest of an unreadable file has no usage.
  }
  return scanner.finish();
}

/** Adds up token counts, e.g. every model's. */
export function addCounts(counts: readonly TokenCounts[]): TokenCounts {
  const sum: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const count of counts) {
    sum.input += count.input;
    sum.output += count.output;
    sum.cacheRead += count.cacheRead;
    sum.cacheWrite += count.cacheWrite;
    if (count.longCacheWrite !== undefined)
      sum.longCacheWrite = (sum.longCacheWrite ?? 0) + count.longCacheWrite;
  }
  return sum;
}

interface LooseEntry {
  type?: unknown;
  keptBy?: unknown;
  trigger?: unknown;
  message?: { role?: unknown; provider?: unknown; model?: unknown; usage?: Partial<Usage> };
  usage?: Array<(Partial<Usage> & { model?: unknown }) | null>;
}

function parseLine(line: string): LooseEntry | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === "object" && parsed !== null ? (parsed as LooseEntry) : undefined;
  } catch {
    return undefined;
  }
}

function addMessage(totals: SessionUsage, message: LooseEntry["message"]): void {
  if (message?.role !== "assistant" || typeof message.provider !== "string") return;
  if (typeof message.model !== "string") return;
  addUsage(totals.chat, `${message.provider}/${message.model}`, message.usage);
}

function addUsage(
  table: Record<string, TokenCounts>,
  model: unknown,
  usage: Partial<Usage> | null | undefined,
): void {
  if (typeof model !== "string" || usage === null || usage === undefined) return;
  const prompt = count(usage.promptTokens);
  const cacheRead = count(usage.cacheReadTokens);
  const cacheWrite = count(usage.cacheWriteTokens);
  const row = table[model] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  row.input += Math.max(0, prompt - cacheRead - cacheWrite);
  row.output += count(usage.outputTokens);
  row.cacheRead += cacheRead;
  row.cacheWrite += cacheWrite;
  const longCacheWrite = Math.min(cacheWrite, count(usage.longCacheWriteTokens));
  if (longCacheWrite > 0) row.longCacheWrite = (row.longCacheWrite ?? 0) + longCacheWrite;
  table[model] = row;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
