import type { MessageEntry } from "../session/index.js";
import type { RecallTerm } from "./recall-query.js";

/** What a search can filter on: who wrote a block, or which tool it belongs to. */
export type BlockKind = "user" | "assistant" | "tool_call" | "tool_result";

/** One searchable piece of a message: a text, a thinking block, a tool call or a tool result. */
export interface SearchableBlock {
  kind: BlockKind;
  /** The tool, for calls and results. */
  tool?: string;
  /** The call's id (calls) or the id of the call answered (results). */
  callId?: string;
  /** A call's arguments. */
  arguments?: Record<string, unknown>;
  /** A failed tool result. */
  isError?: boolean;
  thinking?: boolean;
  /** The text searched and quoted: a call's arguments are its values, one a line. */
  text: string;
}

/** recall's own calls and results are never searched: they would only find earlier searches. */
export const RECALL_TOOL_NAME = "recall";

/** The searchable blocks of a message entry, in order; recall's own calls and results left out. */
export function searchableBlocks(entry: MessageEntry): SearchableBlock[] {
  const { message } = entry;
  if (message.role === "user")
    return message.content.flatMap((block) =>
      block.type === "text" ? [{ kind: "user", text: block.text }] : [],
    );
  if (message.role === "tool")
    return message.content
      .filter((result) => result.toolName !== RECALL_TOOL_NAME)
      .map((result) => ({
        kind: "tool_result",
        tool: result.toolName,
        callId: result.toolCallId,
        isError: result.isError,
        text: result.content
          .map((block) => (block.type === "text" ? block.text : `[image: ${block.mediaType}]`))
          .join("\n"),
      }));
  return message.content.flatMap((block): SearchableBlock[] => {
    if (block.type === "text") return [{ kind: "assistant", text: block.text }];
    if (block.type === "thinking")
      return block.text === "" ? [] : [{ kind: "assistant", thinking: true, text: block.text }];
    if (block.name === RECALL_TOOL_NAME) return [];
    return [
      {
        kind: "tool_call",
        tool: block.name,
        callId: block.id,
        arguments: block.arguments,
        text: argumentText(block.arguments),
      },
    ];
  });
}

/** A call's argument values, one a line: strings as they are, anything else as JSON. */
export function argumentText(args: Record<string, unknown>): string {
  return Object.values(args)
    .map((value) => (typeof value === "string" ? value : JSON.stringify(value)))
    .join("\n");
}

/** Whether `block` is of the kind a search asked for: a block kind, or a tool's name (its calls and results). */
export function matchesKind(block: SearchableBlock, kind: string | undefined): boolean {
  if (kind === undefined) return true;
  if (kind === "user" || kind === "assistant" || kind === "tool_call" || kind === "tool_result")
    return block.kind === kind;
  return block.tool === kind;
}

/** How well a block matches: its score, where the first term it holds is, and its lower-cased text. */
export interface BlockMatch {
  score: number;
  at: number;
  lower: string;
}

/** The most a term adds to a score: it was found where a word starts. */
export const TERM_WEIGHT = 2;

/**
 * Scores `text` (lower-cased first) against the terms: each term it holds adds 2 when found at the
 * start of a word ("port" in "the port"), 1 when only inside one ("port" in "import").
 */
export function matchBlock(text: string, terms: readonly RecallTerm[]): BlockMatch {
  const lower = text.toLowerCase();
  let score = 0;
  let at = Number.POSITIVE_INFINITY;
  for (const term of terms) {
    term.pattern.lastIndex = 0;
    let found = term.pattern.exec(lower);
    if (found === null) continue;
    at = Math.min(at, found.index);
    let weight = 1;
    for (; found !== null; found = term.pattern.exec(lower))
      if (startsWord(lower, found.index)) {
        weight = TERM_WEIGHT;
        break;
      }
    score += weight;
  }
  return { score, at: Number.isFinite(at) ? at : 0, lower };
}

function startsWord(text: string, index: number): boolean {
  return index === 0 || !/[\p{L}\p{N}_]/u.test(text[index - 1] as string);
}

/** Characters of a snippet before and after the match it shows. */
const BEFORE = 80;
const AFTER = 160;

/** A short quote of `text` around offset `at`, on one line, with "…" where it was cut. */
export function snippetAt(text: string, lower: string, at: number): string {
  // Lower-casing rarely changes a text's length; when it did, quote the lower-cased text instead.
  const source = lower.length === text.length ? text : lower;
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(source.length, at + AFTER);
  const body = source.slice(start, end).replace(/\s+/g, " ").trim();
  return `${start > 0 ? "…" : ""}${body}${end < source.length ? "…" : ""}`;
}
