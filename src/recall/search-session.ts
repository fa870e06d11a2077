import { parseSessionLine } from "../session/index.js";
import {
  matchBlock,
  matchesKind,
  type SearchableBlock,
  searchableBlocks,
  snippetAt,
} from "./entry-blocks.js";
import type { RecallQuery } from "./recall-query.js";
import type { RecallSource } from "./recall-sources.js";
import { type LineChunk, LineReader, lineEnd, scanLines } from "./scan-lines.js";
import { SessionStructure, type TurnStatus } from "./session-structure.js";

/** One block of the history that matched a search. */
export interface RecallHit {
  /** Index into the searched sources (0: the current session). */
  source: number;
  turn: number;
  ts: string;
  status: TurnStatus;
  block: SearchableBlock;
  /** How many of the query's terms it holds. */
  score: number;
  snippet: string;
  /** The file offset of its line, and its place in the line: together, how new it is. */
  offset: number;
  index: number;
  /** For a tool result: the call it answers, when found. */
  call?: { tool: string; arguments: Record<string, unknown> };
  /** Why what it says may no longer hold (a later edit of the file it read, a later run of its command). */
  stale?: string;
  /** For a tool result: where the assistant line holding its call is. */
  callLine?: { offset: number; length: number };
}

/** A source as the search left it: its structure (turns, statuses) and how far it was read. */
export interface SearchedSource {
  source: RecallSource;
  structure: SessionStructure;
  /** Bytes of the file searched (its size when the search began). */
  size: number;
}

export interface SearchResult {
  /** The best hits, best first (newest first among equals). */
  hits: RecallHit[];
  /** Hits found in all, the shown ones included. */
  total: number;
  /** False when counting stopped at the budget: `total` is then a lower bound. */
  complete: boolean;
  sources: SearchedSource[];
}

export interface SearchOptions {
  kind?: string;
  /** Hits to return. */
  limit: number;
  /**
   * Bytes of candidate lines parsed at most (the raw prefilter decides which lines are candidates),
   * so a query matching everything still answers in bounded time; past it, the count is a bound.
   */
  budgetBytes?: number;
  signal?: AbortSignal;
}

/** The default of {@link SearchOptions.budgetBytes}. */
export const SEARCH_BUDGET_BYTES = 48 * 1024 * 1024;

interface Candidate {
  source: number;
  offset: number;
  length: number;
  turn: number;
  ts: string;
  /** How many terms its raw line holds: at least the score of any of its blocks. */
  raw: number;
  /** For a tool-result line: the assistant line before it, where its calls are. */
  calls?: { offset: number; length: number };
}

/**
 * Searches the sources (the current session, then its parents) for `query`. Each file is read once
 * from start to end a few megabytes at a time: every line's first bytes give its turn and kind, and
 * the query's words, JSON-escaped, are looked for in the raw bytes with ASCII letters lower-cased, so
 * JSON is parsed only for lines that may hold a term. Those are then parsed best-first (most terms,
 * newest) until the best `limit` hits are certain, and further for the count while the budget lasts.
 */
export async function searchSessions(
  sources: readonly RecallSource[],
  query: RecallQuery,
  options: SearchOptions,
): Promise<SearchResult> {
  const candidates: Candidate[] = [];
  const searched: SearchedSource[] = [];
  for (const [index, source] of sources.entries()) {
    const structure = new SessionStructure();
    const { size } = await scanLines(
      source.path,
      { lower: true, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      (chunk) => collectCandidates(chunk, structure, query, options.kind, index, source, candidates),
    );
    searched.push({ source, structure, size });
  }
  candidates.sort((a, b) => b.raw - a.raw || a.source - b.source || b.offset - a.offset);
  const verified = await verifyCandidates(candidates, searched, query, options);
  await attachCalls(verified.hits, searched);
  return { ...verified, sources: searched };
}

/** The roles whose lines can hold a block of `kind`. */
function rolesFor(kind: string | undefined): ReadonlySet<string> {
  if (kind === "user") return new Set(["user"]);
  if (kind === "assistant" || kind === "tool_call") return new Set(["assistant"]);
  if (kind === "tool_result") return new Set(["tool"]);
  if (kind !== undefined) return new Set(["assistant", "tool"]);
  return new Set(["user", "assistant", "tool"]);
}

function collectCandidates(
  chunk: LineChunk,
  structure: SessionStructure,
  query: RecallQuery,
  kind: string | undefined,
  sourceIndex: number,
  source: RecallSource,
  candidates: Candidate[],
): void {
  const masks = termMasks(chunk, query);
  const roles = rolesFor(kind);
  let lastAssistant: { offset: number; length: number } | undefined;
  for (let line = 0; line < chunk.starts.length; line++) {
    const start = chunk.starts[line] as number;
    const end = lineEnd(chunk, line);
    if (end <= start) continue;
    const info = structure.see(chunk.bytes, start, end, chunk.offset + start);
    if (info.kind !== "message" || info.copy) continue;
    const place = { offset: chunk.offset + start, length: end - start };
    if (info.role === "assistant") lastAssistant = place;
    if (!roles.has(info.role)) continue;
    if (source.throughTurn !== undefined && info.turn > source.throughTurn) continue;
    const raw = rawScore(masks[line] ?? 0, query);
    if (raw === 0) continue;
    candidates.push({
      source: sourceIndex,
      ...place,
      turn: info.turn,
      ts: info.ts,
      raw,
      ...(info.role === "tool" && lastAssistant !== undefined ? { calls: lastAssistant } : {}),
    });
  }
}

/**
 * For each line of the chunk, a bit per needle (all terms' needles in order) set when the line's
 * lower-cased raw bytes hold it. Each needle is found with `Buffer.indexOf` over the whole chunk,
 * skipping to the next line after each find, so the work grows with the chunk and the finds.
 */
function termMasks(chunk: LineChunk, query: RecallQuery): Uint32Array {
  const masks = new Uint32Array(chunk.starts.length);
  const lower = chunk.lower as Buffer;
  let bit = 0;
  for (const term of query.terms)
    for (const needle of term.needles) {
      const flag = 1 << bit++;
      let line = 0;
      for (let at = lower.indexOf(needle); at !== -1; ) {
        while (line + 1 < chunk.starts.length && (chunk.starts[line + 1] as number) <= at) line++;
        masks[line] = (masks[line] as number) | flag;
        const next = chunk.starts[line + 1];
        if (next === undefined) break;
        at = lower.indexOf(needle, next);
      }
    }
  return masks;
}

/** How many terms a line's mask holds whole (a term without needles may be anywhere). */
function rawScore(mask: number, query: RecallQuery): number {
  let score = 0;
  let bit = 0;
  for (const term of query.terms) {
    let all = true;
    for (let index = 0; index < term.needles.length; index++) if ((mask & (1 << bit++)) === 0) all = false;
    if (all) score++;
  }
  return score;
}

/** Whether hit `a` ranks before hit `b`: more terms, then the newer (current session first). */
function ranksBefore(a: RecallHit, b: RecallHit): boolean {
  if (a.score !== b.score) return a.score > b.score;
  if (a.source !== b.source) return a.source < b.source;
  if (a.offset !== b.offset) return a.offset > b.offset;
  return a.index > b.index;
}

/** Whether a candidate line could still hold a hit ranking before `worst`. */
function mayBeat(candidate: Candidate, worst: RecallHit): boolean {
  if (candidate.raw !== worst.score) return candidate.raw > worst.score;
  if (candidate.source !== worst.source) return candidate.source < worst.source;
  return candidate.offset >= worst.offset;
}

async function verifyCandidates(
  candidates: readonly Candidate[],
  searched: readonly SearchedSource[],
  query: RecallQuery,
  options: SearchOptions,
): Promise<{ hits: RecallHit[]; total: number; complete: boolean }> {
  const readers = searched.map((entry) => new LineReader(entry.source.path));
  const budget = options.budgetBytes ?? SEARCH_BUDGET_BYTES;
  const top: RecallHit[] = [];
  let total = 0;
  let spent = 0;
  let settled = false;
  try {
    for (const candidate of candidates) {
      const worst = top.at(-1);
      if (!settled && top.length >= options.limit && worst !== undefined && !mayBeat(candidate, worst))
        settled = true;
      if (spent >= budget && (settled || spent >= budget * 2)) return { hits: top, total, complete: false };
      options.signal?.throwIfAborted();
      spent += candidate.length;
      const reader = readers[candidate.source] as LineReader;
      const hits = lineHits(
        await reader.line(candidate.offset, candidate.length),
        candidate,
        searched,
        query,
        options.kind,
      );
      total += hits.length;
      if (!settled) for (const hit of hits) insertRanked(top, hit, options.limit);
    }
    return { hits: top, total, complete: true };
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
}

function insertRanked(top: RecallHit[], hit: RecallHit, limit: number): void {
  let at = top.length;
  while (at > 0 && ranksBefore(hit, top[at - 1] as RecallHit)) at--;
  if (at >= limit) return;
  top.splice(at, 0, hit);
  if (top.length > limit) top.pop();
}

function lineHits(
  text: string,
  candidate: Candidate,
  searched: readonly SearchedSource[],
  query: RecallQuery,
  kind: string | undefined,
): RecallHit[] {
  const parsed = parseSessionLine(text);
  if (parsed.kind !== "entry" || parsed.entry.type !== "message") return [];
  const structure = (searched[candidate.source] as SearchedSource).structure;
  const hits: RecallHit[] = [];
  searchableBlocks(parsed.entry).forEach((block, index) => {
    if (!matchesKind(block, kind)) return;
    const match = matchBlock(block.text, query.terms);
    if (match.score === 0) return;
    hits.push({
      source: candidate.source,
      turn: candidate.turn,
      ts: candidate.ts,
      status: structure.status(candidate.turn),
      block,
      score: match.score,
      snippet: snippetAt(block.text, match.lower, match.at),
      offset: candidate.offset,
      index,
      ...(candidate.calls === undefined ? {} : { callLine: candidate.calls }),
    });
  });
  return hits;
}

/** The call each tool-result hit answers, read from the assistant line before it. */
async function attachCalls(hits: RecallHit[], searched: readonly SearchedSource[]): Promise<void> {
  for (const hit of hits) {
    const at = hit.callLine;
    if (hit.block.kind !== "tool_result" || at === undefined) continue;
    const reader = new LineReader((searched[hit.source] as SearchedSource).source.path);
    try {
      const parsed = parseSessionLine(await reader.line(at.offset, at.length));
      if (parsed.kind !== "entry" || parsed.entry.type !== "message") continue;
      const call = searchableBlocks(parsed.entry).find(
        (block) => block.kind === "tool_call" && block.callId === hit.block.callId,
      );
      if (call?.tool !== undefined && call.arguments !== undefined)
        hit.call = { tool: call.tool, arguments: call.arguments };
    } finally {
      await reader.close();
    }
  }
}
