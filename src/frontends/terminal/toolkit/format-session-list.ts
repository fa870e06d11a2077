import { type SessionSummary, uniqueIdPrefixes } from "../../../session/index.js";
import { fitWidth } from "./text-width.js";

/** Width the first-prompt column gets when the output is not a terminal. */
const PIPE_PROMPT_WIDTH = 60;

/** One session as `panto sessions --json` prints it (the array holds one per session, newest first). */
export interface SessionJson {
  id: string;
  short_id: string;
  path: string;
  created: string;
  modified: string;
  first_prompt: string | null;
  turns: number;
  compactions: number;
  counts_exact: boolean;
  size_bytes: number;
  /** The session this one was started from, or null: `{id, path, relation, turn}` (turn null when absent). */
  parent: { id: string; path: string; relation: string; turn: number | null } | null;
}

export function sessionsJson(sessions: readonly SessionSummary[]): SessionJson[] {
  const short = uniqueIdPrefixes(sessions.map((session) => session.id));
  return sessions.map((session, index) => ({
    id: session.id,
    short_id: short[index] ?? session.id,
    path: session.path,
    created: session.created,
    modified: session.modified,
    first_prompt: session.firstPrompt ?? null,
    turns: session.turns,
    compactions: session.compactions,
    counts_exact: session.countsExact,
    size_bytes: session.size,
    parent:
      session.parent === undefined
        ? null
        : {
            id: session.parent.id,
            path: session.parent.path,
            relation: session.parent.relation,
            turn: session.parent.turn ?? null,
          },
  }));
}

/**
 * Where a session came from, shown before its first prompt: "↳ fork of 3f2a9c1b at turn 4". The
 * parent is named by its short id in this listing, else by the first 8 characters of its id.
 */
export function lineageLabel(
  session: SessionSummary,
  shortIds: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const parent = session.parent;
  if (parent === undefined) return undefined;
  const name = shortIds.get(parent.id) ?? parent.id.slice(0, 8);
  const point = parent.turn === undefined ? "" : ` at turn ${parent.turn}`;
  return `↳ ${parent.relation} of ${name}${point}`;
}

/** The first prompt with the session's lineage before it, as the listing and the picker show it. */
export function promptWithLineage(
  session: SessionSummary,
  shortIds: ReadonlyMap<string, string> = new Map(),
): string | undefined {
  const lineage = lineageLabel(session, shortIds);
  const prompt = session.firstPrompt === undefined ? undefined : typedPrompt(session.firstPrompt);
  if (lineage === undefined) return prompt;
  return `${lineage}: ${prompt ?? "(no prompt)"}`;
}

/**
 * What the user typed of a prompt: the text before the files `@path` attached and the piped stdin,
 * which panto appends after a blank line as `<file path="...">` and `<stdin>` blocks (the mention
 * stays in the text). A listing shows this, and a filter matches only this.
 */
export function typedPrompt(prompt: string): string {
  const attached = /\n\n<(?:file path="[^"\n]*"|stdin)>\n/.exec(prompt);
  return attached === null ? prompt : prompt.slice(0, attached.index);
}

/** Each session's id mapped to its shortest unique prefix in the listing. */
export function shortIdMap(sessions: readonly SessionSummary[]): Map<string, string> {
  const short = uniqueIdPrefixes(sessions.map((session) => session.id));
  return new Map(sessions.map((session, index) => [session.id, short[index] ?? session.id]));
}

/**
 * The table `panto sessions` prints: one line per session, the first prompt cut to fit `columns`
 * (when known). Counts read only from a file's tail are lower bounds, shown with "≥".
 */
export function formatSessionTable(sessions: readonly SessionSummary[], columns?: number): string {
  const short = uniqueIdPrefixes(sessions.map((session) => session.id));
  const idWidth = Math.max(2, ...short.map((id) => id.length));
  const rows = sessions.map((session, index) => [
    (short[index] ?? session.id).padEnd(idWidth),
    formatTime(session.created),
    formatTime(session.modified),
    count(session.turns, session.countsExact).padStart(6),
    count(session.compactions, session.countsExact).padStart(11),
    formatBytes(session.size).padStart(8),
  ]);
  const heading = [
    "ID".padEnd(idWidth),
    "STARTED         ",
    "LAST WRITTEN    ",
    " TURNS",
    "COMPACTIONS",
    "    SIZE",
  ];
  const used = heading.join("  ").length + 2;
  const promptWidth = Math.max(20, (columns ?? used + PIPE_PROMPT_WIDTH) - used - 1);
  const lines = [[...heading, "FIRST PROMPT"].join("  ")];
  const shortIds = shortIdMap(sessions);
  for (const [index, row] of rows.entries()) {
    const session = sessions[index];
    const prompt = session === undefined ? undefined : promptWithLineage(session, shortIds);
    lines.push([...row, oneLine(prompt, promptWidth)].join("  "));
  }
  return `${lines.join("\n")}\n`;
}

/** A prompt on one line: whitespace runs collapsed, cut to `width` columns. */
export function oneLine(prompt: string | undefined, width: number): string {
  if (prompt === undefined) return "(no prompt)";
  return fitWidth(prompt.replace(/\s+/g, " ").trim(), width);
}

function count(value: number, exact: boolean): string {
  return exact ? String(value) : `≥${value}`;
}

/** Local time to the minute, `YYYY-MM-DD HH:MM`. */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso.slice(0, 16).padEnd(16);
  const two = (value: number): string => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

/** 1024-based, one decimal from KB on: "812 B", "4.0 KB", "10.2 MB". */
export function formatBytes(bytes: number): string {
  const units = ["KB", "MB", "GB", "TB"];
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
