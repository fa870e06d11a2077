import { type BashRunOutcome, bashRunOutcome, type ToolCallBlock } from "../core/index.js";
import { type MessageEntry, parseSessionLine } from "../session/index.js";
import { type LineChunk, lineEnd, scanLines } from "./scan-lines.js";
import type { RecallHit, SearchedSource } from "./search-session.js";

/** What a hit says that a later entry may contradict. */
type Claim =
  | { kind: "read"; hit: RecallHit; path: string }
  | { kind: "run"; hit: RecallHit; command: string; outcome: BashRunOutcome | undefined };

/** A later write, edit or run met by the scan, once its result is known. */
interface LaterEvent {
  offset: number;
  turn: number;
  name: string;
  path?: string;
  command?: string;
  callId: string;
  result?: { isError: boolean; text: string };
}

/**
 * Marks the hits whose content went stale: a file `read` (its call or its result) that a later
 * successful `write` or `edit` changed, and a `bash` command (its call or its result) run again
 * later with another result (another exit status or other output). Reads each source once more,
 * from the oldest such hit on, parsing only the lines that hold one of the paths' file names or one
 * of the commands, and the tool results right after them.
 */
export async function markStale(
  hits: readonly RecallHit[],
  searched: readonly SearchedSource[],
  signal?: AbortSignal,
): Promise<void> {
  for (const [index, source] of searched.entries()) {
    const claims = hits.filter((hit) => hit.source === index).flatMap(claimOf);
    if (claims.length === 0) continue;
    const from = Math.min(...claims.map((claim) => claim.hit.offset));
    const events = await laterEvents(source, claims, from, signal);
    for (const claim of claims) judge(claim, events);
  }
}

function claimOf(hit: RecallHit): Claim[] {
  const tool = hit.block.kind === "tool_call" ? hit.block.tool : hit.call?.tool;
  const args = hit.block.kind === "tool_call" ? hit.block.arguments : hit.call?.arguments;
  if (tool === "read" && typeof args?.path === "string") return [{ kind: "read", hit, path: args.path }];
  if (tool !== "bash" || typeof args?.command !== "string") return [];
  const outcome = hit.block.kind === "tool_result" ? bashRunOutcome(hit.block.text) : undefined;
  return [{ kind: "run", hit, command: args.command.trim(), outcome }];
}

/** The needle a claim's later entries hold in their raw line: the file's base name, or the command. */
function needleOf(claim: Claim): Buffer {
  const text = claim.kind === "read" ? baseName(claim.path) : claim.command;
  return Buffer.from(JSON.stringify(text).slice(1, -1), "utf8");
}

async function laterEvents(
  source: SearchedSource,
  claims: readonly Claim[],
  from: number,
  signal: AbortSignal | undefined,
): Promise<LaterEvent[]> {
  const needles = [
    ...new Map(claims.map((claim) => [needleOf(claim).toString("latin1"), needleOf(claim)])).values(),
  ];
  const events: LaterEvent[] = [];
  let awaiting: LaterEvent[] = [];
  await scanLines(source.source.path, { from, ...(signal === undefined ? {} : { signal }) }, (chunk) => {
    const flagged = linesHolding(chunk, needles);
    for (let line = 0; line < chunk.starts.length; line++) {
      if (awaiting.length === 0 && !flagged.has(line)) continue;
      const start = chunk.starts[line] as number;
      const entry = messageAt(chunk, line);
      if (awaiting.length > 0) {
        // A checkpoint (or another entry that is no message) may sit between a call and its result.
        if (entry === undefined && !isMessageLine(chunk, line)) continue;
        if (entry?.message.role === "tool") settle(awaiting, entry);
        awaiting = [];
      }
      if (entry?.message.role !== "assistant" || !flagged.has(line)) continue;
      const offset = chunk.offset + start;
      const found = relevantCalls(entry, claims).map((call) => eventOf(call, offset, source));
      events.push(...found);
      awaiting = found;
    }
  });
  return events;
}

/** The lines of `chunk` that hold any of the needles. */
function linesHolding(chunk: LineChunk, needles: readonly Buffer[]): Set<number> {
  const lines = new Set<number>();
  for (const needle of needles) {
    let line = 0;
    for (let at = chunk.bytes.indexOf(needle); at !== -1; ) {
      while (line + 1 < chunk.starts.length && (chunk.starts[line + 1] as number) <= at) line++;
      lines.add(line);
      const next = chunk.starts[line + 1];
      if (next === undefined) break;
      at = chunk.bytes.indexOf(needle, next);
    }
  }
  return lines;
}

/** Whether the line is a message entry (by its first bytes, as session files write them). */
function isMessageLine(chunk: LineChunk, line: number): boolean {
  const start = chunk.starts[line] as number;
  return chunk.bytes.toString("latin1", start, start + MESSAGE_PREFIX.length) === MESSAGE_PREFIX;
}
const MESSAGE_PREFIX = '{"type":"message"';

function messageAt(chunk: LineChunk, line: number): MessageEntry | undefined {
  const start = chunk.starts[line] as number;
  const parsed = parseSessionLine(chunk.bytes.toString("utf8", start, lineEnd(chunk, line)));
  if (parsed.kind !== "entry" || parsed.entry.type !== "message" || parsed.entry.keptBy !== undefined)
    return undefined;
  return parsed.entry;
}

/** The calls of `entry` that may make a claim stale: writes and edits of a read path, runs of a command. */
function relevantCalls(entry: MessageEntry, claims: readonly Claim[]): ToolCallBlock[] {
  if (entry.message.role !== "assistant") return [];
  return entry.message.content.filter((block): block is ToolCallBlock => {
    if (block.type !== "tool-call") return false;
    const { path, command } = block.arguments;
    if ((block.name === "write" || block.name === "edit") && typeof path === "string")
      return claims.some((claim) => claim.kind === "read" && samePath(claim.path, path));
    if (block.name === "bash" && typeof command === "string")
      return claims.some((claim) => claim.kind === "run" && claim.command === command.trim());
    return false;
  });
}

function eventOf(call: ToolCallBlock, offset: number, source: SearchedSource): LaterEvent {
  const { path, command } = call.arguments;
  return {
    offset,
    turn: turnAt(source, offset),
    name: call.name,
    callId: call.id,
    ...(typeof path === "string" ? { path } : {}),
    ...(typeof command === "string" ? { command: command.trim() } : {}),
  };
}

function settle(awaiting: readonly LaterEvent[], entry: MessageEntry): void {
  if (entry.message.role !== "tool") return;
  for (const result of entry.message.content) {
    const event = awaiting.find((candidate) => candidate.callId === result.toolCallId);
    if (event === undefined) continue;
    event.result = {
      isError: result.isError,
      text: result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
    };
  }
}

function judge(claim: Claim, events: readonly LaterEvent[]): void {
  const { hit } = claim;
  const later = events.filter((event) => event.offset > hit.offset && event.result !== undefined);
  if (claim.kind === "read") {
    const change = later.findLast(
      (event) =>
        event.path !== undefined && samePath(event.path, claim.path) && event.result?.isError === false,
    );
    if (change !== undefined)
      hit.stale = `${claim.path} was ${change.name === "edit" ? "edited" : "written"} in turn ${change.turn}, after this read`;
    return;
  }
  const own =
    claim.outcome ??
    outcomeOf(events.find((event) => event.offset === hit.offset && event.callId === hit.block.callId));
  const runs = later.filter((event) => event.command === claim.command && event.callId !== hit.block.callId);
  const last = runs.at(-1);
  const lastOutcome = outcomeOf(last);
  if (last === undefined || lastOutcome === undefined || own === undefined) return;
  if (runs.every((run) => sameOutcome(outcomeOf(run), own))) return;
  hit.stale = `run again in turn ${last.turn} with another result (${lastOutcome.ending})`;
}

function outcomeOf(event: LaterEvent | undefined): BashRunOutcome | undefined {
  return event?.result === undefined ? undefined : bashRunOutcome(event.result.text);
}

function sameOutcome(a: BashRunOutcome | undefined, b: BashRunOutcome): boolean {
  return a !== undefined && a.exitCode === b.exitCode && a.ending === b.ending && a.output === b.output;
}

/** The turn a line at `offset` belongs to: the last turn starting at or before it. */
function turnAt(source: SearchedSource, offset: number): number {
  const starts = source.structure.turnStarts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

function baseName(path: string): string {
  return path.split("/").filter(Boolean).at(-1) ?? path;
}

/** The same file as far as the text tells: equal after "./", or one ends with "/" and the other. */
function samePath(a: string, b: string): boolean {
  const left = a.replace(/^(\.\/)+/, "");
  const right = b.replace(/^(\.\/)+/, "");
  return left === right || left.endsWith(`/${right}`) || right.endsWith(`/${left}`);
}
