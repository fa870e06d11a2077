import type { SessionHeader } from "../session/index.js";
import { formatSearch } from "./format-recall.js";
import { findToolResult } from "./read-tool-result.js";
import { READ_CHARS, readTurns } from "./read-turns.js";
import { parseRecallQuery } from "./recall-query.js";
import { type RecallSource, recallLineage } from "./recall-sources.js";
import { searchSessions } from "./search-session.js";
import { markStale } from "./stale-marks.js";

/** The session recall looks into: its file (if written yet) and header (which names its parent). */
export interface RecallSession {
  path: string;
  header: SessionHeader;
  hasFile: boolean;
}

/** One recall call: a search or a read, as the tool's arguments give it. */
export interface RecallRequest {
  query?: string | undefined;
  kind?: string | undefined;
  limit?: number | undefined;
  turn?: number | undefined;
  to?: number | undefined;
  offset?: number | undefined;
  session?: string | undefined;
  /** Read one tool call's output whole (a cleared one among them), by the call's id. */
  tool_result?: string | undefined;
  /** Read a background task's output log whole (paged), by its id. */
  task?: string | undefined;
  signal?: AbortSignal | undefined;
}

export type RecallAnswer = { ok: true; text: string } | { ok: false; text: string };

const KIND_ALIASES: Record<string, string> = {
  "tool call": "tool_call",
  "tool-call": "tool_call",
  "tool result": "tool_result",
  "tool-result": "tool_result",
};

/**
 * Answers one recall call from the session files: a search over the session and the sessions it
 * was started from (or the one `session` names), or the turns `turn` to `to` of one session read
 * back. Everything it returns comes from the files as written; the caller redacts it.
 */
export async function recall(session: RecallSession, request: RecallRequest): Promise<RecallAnswer> {
  const hasQuery = request.query !== undefined && request.query.trim() !== "";
  const asked = [
    hasQuery,
    request.turn !== undefined,
    request.tool_result !== undefined,
    request.task !== undefined,
  ];
  if (asked.filter(Boolean).length !== 1)
    return fail(
      'give either "query" (to search), "turn" (to read a turn back), "tool_result" (to read one tool output back) or "task" (to read a background task\'s log), exactly one of them',
    );
  if (request.task !== undefined) {
    const { readTaskLog } = await import("./read-task-log.js");
    const answer = await readTaskLog(session.path, request.task, request.offset ?? 0, READ_CHARS);
    return answer.ok ? answer : fail(answer.text);
  }
  const lineage = await recallLineage(session.path, session.header);
  if (!session.hasFile) lineage.sources.shift();
  const chosen = chooseSources(lineage.sources, request.session);
  if (typeof chosen === "string") return fail(chosen);
  if (hasQuery) return search(chosen, request, lineage.problems);
  if (request.tool_result !== undefined) return readResult(chosen, request.tool_result, request);
  if (request.session === undefined && chosen.length > 1) chosen.splice(1);
  return read(chosen[0] as RecallSource, request);
}

function fail(text: string): RecallAnswer {
  return { ok: false, text: `recall: ${text}` };
}

function chooseSources(sources: RecallSource[], wanted: string | undefined): RecallSource[] | string {
  if (sources.length === 0) return "nothing is recorded in this session yet";
  if (wanted === undefined) return sources;
  const name = wanted.trim().toLowerCase();
  if (name === "current")
    return sources[0]?.relation === undefined
      ? [sources[0] as RecallSource]
      : "nothing is recorded in this session yet";
  if (name === "parent") {
    const parent = sources.find((source) => source.relation !== undefined);
    return parent === undefined ? "this session was not started from another one" : [parent];
  }
  const matches = sources.filter((source) => source.id.toLowerCase().startsWith(name));
  if (matches.length === 1) return matches;
  return `no session of this lineage has an id starting with "${wanted}" (they are: ${sources.map((source) => source.id.slice(0, 8)).join(", ")})`;
}

async function search(
  sources: RecallSource[],
  request: RecallRequest,
  problems: readonly string[],
): Promise<RecallAnswer> {
  const query = parseRecallQuery(request.query ?? "");
  if (query.terms.length === 0) return fail("the query has no words to look for");
  const kind =
    request.kind === undefined
      ? undefined
      : (KIND_ALIASES[request.kind.trim().toLowerCase()] ?? request.kind.trim());
  const signal = request.signal === undefined ? {} : { signal: request.signal };
  const result = await searchSessions(sources, query, {
    limit: request.limit ?? 8,
    ...(kind === undefined ? {} : { kind }),
    ...signal,
  });
  await markStale(result.hits, result.sources, request.signal);
  return { ok: true, text: formatSearch(result, query.text, kind, problems) };
}

/**
 * One tool output read back whole by its call id (what a clearing's stub names): verbatim, paged
 * like a turn (`offset`, at most `READ_CHARS` characters at a time).
 */
async function readResult(
  sources: RecallSource[],
  id: string,
  request: RecallRequest,
): Promise<RecallAnswer> {
  const found = await findToolResult(sources, id.trim(), request.signal);
  if (found === undefined) return fail(`no tool result with the call id "${id}" is recorded in this session`);
  const offset = request.offset ?? 0;
  const page = found.text.slice(offset, offset + READ_CHARS);
  const next = offset + READ_CHARS < found.text.length ? offset + READ_CHARS : undefined;
  const where =
    found.source.relation === undefined
      ? ""
      : ` (in the ${found.source.relation} parent session ${found.source.id.slice(0, 8)})`;
  const ending = found.result.isError ? ", an error" : "";
  const from = offset === 0 ? "" : `, from character ${offset}`;
  const many =
    found.occurrences > 1 ? `; ${found.occurrences} results carry this id, this is the latest` : "";
  const more =
    next === undefined
      ? ""
      : `\n\n[More follows: call recall with ${JSON.stringify({ tool_result: id, offset: next })} for the next page.]`;
  return {
    ok: true,
    text: `Output of ${found.result.toolName} call ${id}${where}${ending}${from}${many}:\n${page}${more}`,
  };
}

async function read(source: RecallSource, request: RecallRequest): Promise<RecallAnswer> {
  const from = request.turn as number;
  const result = await readTurns(source, {
    from,
    to: request.to ?? from,
    offset: request.offset ?? 0,
    chars: READ_CHARS,
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  if (!result.ok) return fail(result.message);
  const which = result.from === result.to ? `Turn ${result.from}` : `Turns ${result.from} to ${result.to}`;
  const where =
    source.relation === undefined
      ? "of this session"
      : `of the ${source.relation} parent session ${source.id.slice(0, 8)}`;
  const range = `${which} ${where} (of ${result.turns})`;
  const page =
    request.offset === undefined || request.offset === 0 ? "" : `, from character ${request.offset}`;
  const more =
    result.next === undefined
      ? ""
      : `\n\n[More follows: call recall with ${JSON.stringify({ turn: result.from, ...(result.to === result.from ? {} : { to: result.to }), offset: result.next, ...(source.relation === undefined ? {} : { session: source.id.slice(0, 8) }) })} for the next page.]`;
  return { ok: true, text: `${range}${page}:\n${result.text.trimEnd()}${more}` };
}
