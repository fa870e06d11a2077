import type { SearchableBlock } from "./entry-blocks.js";
import { formatTime } from "./read-turns.js";
import type { RecallSource } from "./recall-sources.js";
import type { RecallHit, SearchResult } from "./search-session.js";

/** The way a hit names where it is: "turn 12", or "turn 4 of the handoff parent session 3f2a9c1b". */
export function placeOf(turn: number, source: RecallSource): string {
  if (source.relation === undefined) return `turn ${turn}`;
  return `turn ${turn} of the ${source.relation} parent session ${source.id.slice(0, 8)}`;
}

/** The search's answer for the model: the hits, best first, and how many more there were. */
export function formatSearch(
  result: SearchResult,
  query: string,
  kind: string | undefined,
  problems: readonly string[],
): string {
  const asked = `${JSON.stringify(query)}${kind === undefined ? "" : ` (kind ${kind})`}`;
  const lines: string[] = [];
  if (result.hits.length === 0) lines.push(`No hits for ${asked} in ${searchedTurns(result)}.`);
  else {
    lines.push(
      `${hitCount(result)} for ${asked} in ${searchedTurns(result)}; best first (most query terms, whole words first, then newest):`,
    );
    result.hits.forEach((hit, index) => {
      lines.push(`${index + 1}. ${hitHeading(hit, result)}`, `   ${hit.snippet}`);
    });
    lines.push(moreLine(result));
  }
  for (const problem of problems) lines.push(`Note: ${problem}.`);
  return lines.filter((line) => line !== "").join("\n");
}

function hitCount(result: SearchResult): string {
  const shown = result.hits.length;
  if (!result.complete)
    return `At least ${result.total} hits (counting stopped early: narrow the query or give a kind)`;
  return result.total === shown
    ? `${shown} ${shown === 1 ? "hit" : "hits"}`
    : `${result.total} hits, the best ${shown} shown`;
}

function moreLine(result: SearchResult): string {
  const hidden = result.total - result.hits.length;
  const more =
    hidden > 0
      ? `${result.complete ? "" : "at least "}${hidden} more not shown (add words, a kind, or a larger limit). `
      : "";
  return `${more}Read a whole turn with {"turn": N} (a range: {"turn": N, "to": M}).`;
}

function searchedTurns(result: SearchResult): string {
  return result.sources
    .map(({ source, structure }) => {
      const turns = Math.min(structure.turn, source.throughTurn ?? structure.turn);
      const range = turns === 0 ? "no turns" : turns === 1 ? "turn 1" : `turns 1 to ${turns}`;
      return source.relation === undefined
        ? `${range} of this session`
        : `${range} of the ${source.relation} parent session ${source.id.slice(0, 8)}`;
    })
    .join(" and ");
}

function hitHeading(hit: RecallHit, result: SearchResult): string {
  const source = result.sources[hit.source]?.source as RecallSource;
  const parts = [placeOf(hit.turn, source), formatTime(hit.ts), describeBlock(hit.block, hit.call)];
  // A parent's own context is no concern of this session: only a turn replay dropped is marked.
  if (source.relation === undefined || hit.status === "failed" || hit.status === "rewound")
    parts.push(hit.status);
  if (hit.cleared === true && hit.block.callId !== undefined)
    parts.push(
      `cleared from the context: ${JSON.stringify({ tool_result: hit.block.callId })} reads it whole`,
    );
  if (hit.stale !== undefined) parts.push(`stale: ${hit.stale}`);
  return parts.join(" · ");
}

/** "user", "assistant (thinking)", "tool call bash: npm test", "tool result of read src/a.ts (error)". */
function describeBlock(block: SearchableBlock, call: RecallHit["call"]): string {
  if (block.kind === "user") return "user";
  if (block.kind === "assistant") return block.thinking === true ? "assistant (thinking)" : "assistant";
  if (block.kind === "tool_call") return `tool call ${block.tool ?? "?"}${mainArgument(block.arguments)}`;
  const error = block.isError === true ? " (error)" : "";
  return `tool result of ${block.tool ?? "?"}${mainArgument(call?.arguments)}${error}`;
}

/** A call's main argument, shortened: its command, path or pattern. */
function mainArgument(args: Record<string, unknown> | undefined): string {
  const main = args?.command ?? args?.path ?? args?.pattern;
  if (typeof main !== "string") return "";
  const line = main.replace(/\s+/g, " ").trim();
  return ` ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
}
