import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { Usage } from "../core/index.js";

/** Tokens as providers bill them: `input` is the uncached part of the prompt. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
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
  for (const line of text.split("\n")) {
    // Most lines are tool output: skip them without parsing.
    if (!line.includes('"usage"')) continue;
    const entry = parseLine(line);
    if (entry === undefined) continue;
    if (entry.type === "message" && entry.keptBy === undefined) addMessage(totals, entry.message);
    else if (entry.type === "compaction" && entry.trigger !== "edited" && Array.isArray(entry.usage))
      for (const item of entry.usage) addUsage(totals.compaction, item?.model, item);
  }
  return totals;
}

/** `sumSessionUsage` of the file at `path`; an unreadable file has no usage. */
export async function readSessionUsage(path: string): Promise<SessionUsage> {
  return sumSessionUsage(await readFile(path, "utf8").catch(() => ""));
}

/** The same, synchronously: for the last JSON event, written as the process ends. */
export function readSessionUsageSync(path: string): SessionUsage {
  try {
    return sumSessionUsage(readFileSync(path, "utf8"));
  } catch {
    return { chat: {}, compaction: {} };
  }
}

/** Adds up token counts, e.g. every model's. */
export function addCounts(counts: readonly TokenCounts[]): TokenCounts {
  const sum: TokenCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  for (const count of counts) {
    sum.input += count.input;
    sum.output += count.output;
    sum.cacheRead += count.cacheRead;
    sum.cacheWrite += count.cacheWrite;
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
  table[model] = row;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}
