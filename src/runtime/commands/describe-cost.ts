import type { ModelPrice } from "../../config/index.js";
import { formatCount } from "../../core/index.js";
import { addCounts, type ClearingSavings, type SessionUsage, type TokenCounts } from "../../session/index.js";

const HEADINGS = ["input", "output", "cache read", "cache write", "cost"] as const;

/** What the session's subagents (the `task` tool's children, each in a session of its own) used. */
export interface SubagentUsage {
  sessions: number;
  usage: SessionUsage;
}

/**
 * `/cost`: tokens per model for the whole session (resumed history included), the agent's requests,
 * compaction's summary requests and the subagents' sessions (their requests and compactions) apart,
 * priced only where config "prices" names the model and every kind of token it used. Nothing is
 * estimated.
 */
export function describeCost(
  usage: SessionUsage,
  prices: Record<string, ModelPrice> = {},
  subagents?: SubagentUsage,
): string {
  const chat = Object.entries(usage.chat);
  const compaction = Object.entries(usage.compaction);
  const children = subagents === undefined ? [] : Object.entries(mergeByModel(subagents.usage));
  if (chat.length === 0 && compaction.length === 0 && children.length === 0)
    return "No usage reported in this session yet (providers that report none are not counted).";
  const rows: string[][] = [];
  const costs: Array<number | undefined> = [];
  const section = (title: string, entries: Array<[string, TokenCounts]>): void => {
    if (entries.length === 0) return;
    rows.push([title]);
    for (const [model, counts] of entries) {
      const cost = priceOf(counts, prices[model]);
      costs.push(cost);
      rows.push([`  ${model}`, ...countCells(counts), cost === undefined ? "-" : formatCost(cost)]);
    }
  };
  section("Requests", chat);
  section("Compaction (summary requests)", compaction);
  const sessions = subagents?.sessions ?? 0;
  section(`Subagents (${sessions} task ${sessions === 1 ? "session" : "sessions"})`, children);
  const total = addCounts([...chat, ...compaction, ...children].map(([, counts]) => counts));
  const priced = costs.filter((cost): cost is number => cost !== undefined);
  const totalCost = priced.length === 0 ? "-" : formatCost(priced.reduce((sum, cost) => sum + cost, 0));
  rows.push(["Total", ...countCells(total), totalCost]);
  const lines = table([["Session usage (tokens)", ...HEADINGS], ...rows]);
  lines.push(costNote(priced.length, costs.length));
  return lines.join("\n");
}

/**
 * `/cost`'s line on clearing, apart from the measured usage above it: what clearing took out and
 * the input tokens later requests did not carry (an estimate from the recorded sizes). Empty when
 * nothing was cleared.
 */
export function describeClearingSavings(savings: ClearingSavings): string {
  if (savings.clearings === 0) return "";
  const clearings = savings.clearings === 1 ? "1 clearing" : `${savings.clearings} clearings`;
  const outputs = savings.results === 1 ? "1 old tool output" : `${savings.results} old tool outputs`;
  return `\nClearing saved: ${clearings} took ${outputs} out of the context; the requests after them carried about ${formatCount(savings.tokensSaved)} fewer input tokens (estimated from the sizes recorded with each clearing; not in the table).`;
}

/** The price of `counts`, or undefined when no price is configured for a kind of token it used. */
export function priceOf(counts: TokenCounts, price: ModelPrice | undefined): number | undefined {
  if (price === undefined) return undefined;
  const longCacheWrite = counts.longCacheWrite ?? 0;
  const parts: Array<[number, number | undefined]> = [
    [counts.input, price.input_per_mtok],
    [counts.output, price.output_per_mtok],
    [counts.cacheRead, price.cache_read_per_mtok],
    [counts.cacheWrite - longCacheWrite, price.cache_write_per_mtok],
    [longCacheWrite, price.cache_write_1h_per_mtok],
  ];
  let sum = 0;
  for (const [tokens, perMillion] of parts) {
    if (tokens === 0) continue;
    if (perMillion === undefined) return undefined;
    sum += (tokens * perMillion) / 1_000_000;
  }
  return sum;
}

function costNote(priced: number, rows: number): string {
  if (priced === rows) return 'Cost from config "prices" (per million tokens); input excludes cached tokens.';
  if (priced === 0)
    return 'No cost shown: no price configured for these models (config "prices", per million tokens). Input excludes cached tokens.';
  return 'Cost only where config "prices" covers the model and every kind of token it used ("-" elsewhere, not counted in the total). Input excludes cached tokens.';
}

function countCells(counts: TokenCounts): string[] {
  return [counts.input, counts.output, counts.cacheRead, counts.cacheWrite].map(formatCount);
}

function formatCost(cost: number): string {
  return `$${cost.toFixed(cost >= 1 ? 2 : 4)}`;
}

/** Left-aligned first column, the others right-aligned; a row of one cell is a heading line. */
function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    if (row.length === 1) continue;
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row.length === 1
      ? (row[0] ?? "")
      : row
          .map((cell, index) =>
            index === 0 ? cell.padEnd(widths[0] ?? 0) : cell.padStart(widths[index] ?? 0),
          )
          .join("  ")
          .trimEnd(),
  );
}

/** A subagent session's requests and summary requests together, per model. */
function mergeByModel(usage: SessionUsage): Record<string, TokenCounts> {
  const merged: Record<string, TokenCounts> = {};
  for (const [model, counts] of [...Object.entries(usage.chat), ...Object.entries(usage.compaction)])
    merged[model] = addCounts([merged[model] ?? addCounts([]), counts]);
  return merged;
}

/** The usage of several sessions added up, per model, requests and summary requests apart. */
export function addSessionUsage(usages: readonly SessionUsage[]): SessionUsage {
  const sum: SessionUsage = { chat: {}, compaction: {} };
  for (const usage of usages)
    for (const kind of ["chat", "compaction"] as const)
      for (const [model, counts] of Object.entries(usage[kind]))
        sum[kind][model] = addCounts([sum[kind][model] ?? addCounts([]), counts]);
  return sum;
}
