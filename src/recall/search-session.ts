import { parseSessionLine } from "../session/index.js";
import { type Candidate, CandidatePool } from "./candidate-pool.js";
import {
  matchBlock,
  matchesKind,
  type SearchableBlock,
  searchableBlocks,
  snippetAt,
  TERM_WEIGHT,
} from "./entry-blocks.js";
import { findNeedle, lowerCaseInto } from "./find-needle.js";
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
  /** How well it matches: per term it holds, 2 where a word starts with it, else 1. */
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
  /** For a tool result: a clearing in force holds its stub in the context (the file keeps it whole). */
  cleared?: true;
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
   * Bytes of candidate lines parsed for the count once the best hits are certain (the raw
   * prefilter decides which lines are candidates); past it, the count is a lower bound.
   */
  countBytes?: number;
  /** Bytes of candidate lines parsed at most, so a query matching everything answers in bounded time. */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** The defaults of {@link SearchOptions.countBytes} and {@link SearchOptions.maxBytes}. */
export const COUNT_BYTES = 4 * 1024 * 1024;
export const MAX_SEARCH_BYTES = 24 * 1024 * 1024;

/**
 * Searches the sources (the current session, then its parents) for `query`. Each file is read once
 * from start to end a few megabytes at a time: every line's first bytes give its turn and kind, and
 * the query's words, JSON-escaped, are looked for in the raw bytes with ASCII letters lower-cased, so
 * JSON is parsed only for lines that may hold a term. Those are then parsed best-first (most terms,
 * newest) until the best `limit` hits are certain, and further for the count while its budget lasts.
 */
export async function searchSessions(
  sources: readonly RecallSource[],
  query: RecallQuery,
  options: SearchOptions,
): Promise<SearchResult> {
  const pool = new CandidatePool(options.maxBytes ?? MAX_SEARCH_BYTES);
  const searched: SearchedSource[] = [];
  const needles = query.terms.map((term) => ({
    needles: term.needles.map((needle) => Buffer.from(needle, "latin1")),
    startNeedle: term.startNeedle,
  }));
  // One buffer for the lower-cased bytes of every read, as the scan has one for the bytes.
  const scratch = { buffer: Buffer.alloc(0) };
  for (const [index, source] of sources.entries()) {
    const structure = new SessionStructure();
    const { size } = await scanLines(
      source.path,
      // A complete last entry without its newline counts, as resuming keeps it.
      { partialLast: true, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      (chunk) => collectCandidates(chunk, structure, needles, scratch, options.kind, index, source, pool),
    );
    searched.push({ source, structure, size });
  }
  const { candidates, dropped } = pool.ordered();
  const verified = await verifyCandidates(candidates, searched, query, options);
  if (dropped) verified.complete = false;
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
  needles: readonly TermNeedles[],
  scratch: { buffer: Buffer },
  kind: string | undefined,
  sourceIndex: number,
  source: RecallSource,
  pool: CandidatePool,
): void {
  const bounds = lineBounds(chunk, lowerCaseInto(scratch, chunk.bytes), needles);
  const roles = rolesFor(kind);
  let lastAssistant: { offset: number; length: number } | undefined;
  for (let line = 0; line < chunk.starts.length; line++) {
    const start = chunk.starts[line] as number;
    const end = lineEnd(chunk, line);
    if (end <= start) continue;
    const info = structure.see(chunk, start, end);
    if (info.kind !== "message" || info.copy) continue;
    const place = { offset: chunk.offset + start, length: end - start };
    if (info.role === "assistant") lastAssistant = place;
    if (!roles.has(info.role as string)) continue;
    if (source.throughTurn !== undefined && info.turn > source.throughTurn) continue;
    const bound = bounds[line] ?? 0;
    if (bound === 0) continue;
    pool.add({
      source: sourceIndex,
      ...place,
      turn: info.turn,
      bound,
      ...(info.role === "tool" && lastAssistant !== undefined ? { calls: lastAssistant } : {}),
    });
  }
}

/**
 * For each line of the chunk, the most its blocks can score: per term whose needles its raw bytes
 * all hold (in any case), TERM_WEIGHT when the term may start a word there, else 1. Each needle is
 * found with `Buffer.indexOf` over the lower-cased chunk (see find-needle.ts), so the work grows
 * with the chunk and the finds, not with lines times needles.
 */
function lineBounds(chunk: LineChunk, lower: Buffer, needles: readonly TermNeedles[]): Uint16Array {
  const lines = chunk.starts.length;
  const bounds = new Uint16Array(lines);
  for (const term of needles) {
    const found = term.needles.map((needle, index) =>
      findNeedle(chunk, lower, needle, index === 0 && term.startNeedle),
    );
    for (let line = 0; line < lines; line++) {
      let level = found.length === 0 || !term.startNeedle ? TERM_WEIGHT : 1;
      for (const levels of found) level = levels[line] === 0 ? 0 : Math.max(level, levels[line] as number);
      bounds[line] = (bounds[line] as number) + level;
    }
  }
  return bounds;
}

/** A term's needles as bytes. */
interface TermNeedles {
  needles: Buffer[];
  startNeedle: boolean;
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
  if (candidate.bound !== worst.score) return candidate.bound > worst.score;
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
  const countBytes = options.countBytes ?? COUNT_BYTES;
  const maxBytes = options.maxBytes ?? MAX_SEARCH_BYTES;
  const top: RecallHit[] = [];
  let total = 0;
  let spent = 0;
  /** Bytes parsed when the best hits became certain. */
  let settledAt: number | undefined;
  try {
    for (const candidate of candidates) {
      const worst = top.at(-1);
      if (
        settledAt === undefined &&
        top.length >= options.limit &&
        worst !== undefined &&
        !mayBeat(candidate, worst)
      )
        settledAt = spent;
      if (spent >= maxBytes || (settledAt !== undefined && spent - settledAt >= countBytes))
        return { hits: top, total, complete: false };
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
      if (settledAt === undefined) for (const hit of hits) insertRanked(top, hit, options.limit);
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
      ts: parsed.entry.ts,
      status: structure.status(candidate.turn),
      block,
      score: match.score,
      snippet: snippetAt(block.text, match.lower, match.at),
      offset: candidate.offset,
      index,
      ...(candidate.calls === undefined ? {} : { callLine: candidate.calls }),
      ...(block.kind === "tool_result" &&
      block.callId !== undefined &&
      structure.cleared(candidate.offset, block.callId)
        ? { cleared: true as const }
        : {}),
    });
  });
  return hits;
}

/** The call each tool-result hit answers, read from the assistant line before it. */
async function attachCalls(hits: RecallHit[], searched: readonly SearchedSource[]): Promise<void> {
  const readers = searched.map((entry) => new LineReader(entry.source.path));
  try {
    for (const hit of hits) {
      const at = hit.callLine;
      if (hit.block.kind !== "tool_result" || at === undefined) continue;
      const parsed = parseSessionLine(await (readers[hit.source] as LineReader).line(at.offset, at.length));
      if (parsed.kind !== "entry" || parsed.entry.type !== "message") continue;
      const call = searchableBlocks(parsed.entry).find(
        (block) => block.kind === "tool_call" && block.callId === hit.block.callId,
      );
      if (call?.tool !== undefined && call.arguments !== undefined)
        hit.call = { tool: call.tool, arguments: call.arguments };
    }
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
}
