import { formatCount } from "./format-count.js";
import type { ClearingMark } from "./scan-session.js";
import type { EntryFields } from "./session-lines.js";

/** Why a clearing happened, in words, by its `reason`. */
const CLEARING_REASONS: Record<string, string> = {
  trigger: "the prompt passed clearing.trigger_tokens",
  "cold-cache": "the prompt cache had gone cold",
};

const CLEARING_STATUS_WORDS = {
  "in force": "in force",
  "taken back": "taken back",
  rewound: "taken back by a rewind",
  compacted: "summarised by a later compaction",
} as const;

/** The words for a clearing in the entry list: its ordinal and line. */
export function clearingName(mark: ClearingMark): string {
  return `clearing ${mark.ordinal} (line ${mark.line})`;
}

/** Whether a clearing is in force, in words (with the line of the `unclear` that took it back). */
export function clearingStatusWords(mark: ClearingMark): string {
  return mark.takenBackAt === undefined
    ? CLEARING_STATUS_WORDS[mark.status]
    : `taken back at line ${mark.takenBackAt}`;
}

/** "next request 900 -> 500 tokens", when the entry gives both sizes; "" otherwise. */
export function sizeChange(fields: EntryFields): string {
  const { tokensBefore, tokensAfter } = fields;
  return typeof tokensBefore === "number" && typeof tokensAfter === "number"
    ? `next request ${formatCount(tokensBefore)} -> ${formatCount(tokensAfter)} tokens`
    : "";
}

/** A clearing entry's results, as the file names them (ids and sizes only). */
export function clearedResultsOf(fields: EntryFields): Array<{ id: string; tool: string; tokens?: number }> {
  const results = Array.isArray(fields.results) ? (fields.results as Array<Record<string, unknown>>) : [];
  return results.map((result) => ({
    id: String(result.toolCallId),
    tool: String(result.toolName),
    ...(typeof result.tokens === "number" ? { tokens: result.tokens } : {}),
  }));
}

/**
 * A clearing entry in one sentence, without its list of results: how many it cleared, why, the
 * sizes. `text` makes session text safe for the format.
 */
export function clearingSentence(fields: EntryFields, text: (value: string) => string): string {
  const count = clearedResultsOf(fields).length;
  const reason =
    typeof fields.reason === "string" ? (CLEARING_REASONS[fields.reason] ?? text(fields.reason)) : "";
  const summary = [
    // Not "cleared from the context": the page says that on each result a clearing in force stubs.
    `${formatCount(count)} old tool result${count === 1 ? "" : "s"} replaced by one-line stubs`,
    reason,
    sizeChange(fields),
  ]
    .filter((part) => part !== "")
    .join(" · ");
  return `${summary}. The results stay whole in the file (shown above); recall reads them back.`;
}

/** An `unclear` entry in one sentence: which clearing it took back, whether that still holds, the sizes. */
export function unclearSentence(
  fields: EntryFields,
  line: number,
  clearings: readonly ClearingMark[],
  text: (value: string) => string,
): string {
  const id = typeof fields.clearingId === "string" ? fields.clearingId : "?";
  const mark = clearings.find((candidate) => candidate.id === id);
  const target = mark === undefined ? `clearing ${text(id)}` : clearingName(mark);
  const size = sizeChange(fields);
  // Only the unclear that took the clearing back, and was not rewound since, has that effect now.
  const effect = mark?.takenBackAt === line ? ": its results are whole in the context again" : "";
  return `${target} taken back (/unclear)${effect}${size === "" ? "" : ` · ${size}`}.`;
}
