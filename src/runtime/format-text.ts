import type { RequestSize } from "../agent/index.js";
import type {
  CompactionRecord,
  RestoredFact,
  SandboxRecord,
  SummaryChunking,
  ToolCallBlock,
  ToolResultBlock,
} from "../core/index.js";

// The plain text every front-end shows alike: token counts, compaction reports, tool calls and
// results in one line. Colour is the terminal's own (cli/terminal/style.ts).

/** 812 -> "812", 1930 -> "1.9k", 41234 -> "41k". */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(Math.round(tokens));
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${Math.round(tokens / 1000)}k`;
}

/** "3.2k tokens" from the provider's numbers, "~3.2k tokens" from the local estimate alone. */
export function formatRequestTokens(size: RequestSize): string {
  return `${size.source === "estimate" ? "~" : ""}${formatTokens(size.tokens)} tokens`;
}

export function plural(count: number, noun: string, many = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : many}`;
}

/**
 * The one-line account of a compaction, e.g. "compacted 12 turns into a summary (kept 3 turns,
 * next request 41k -> 9k tokens, model anthropic/claude-haiku-4-5, fell back: no)". The pair is the
 * next request's size (system prompt and tools included) before and after, measured alike.
 */
export function formatCompactionLine(
  record: CompactionRecord,
  tokensBefore: number,
  tokensAfter: number,
): string {
  const restored = formatRestored(record.restored ?? []);
  const unverified = record.unverified?.length ?? 0;
  const chunking = formatChunking(record.chunks, record.chunking);
  return (
    `compacted ${plural(record.turnsSummarised, "turn")} into a summary ` +
    `(kept ${plural(record.turnsKept, "turn")}, next request ${formatTokens(tokensBefore)} -> ${formatTokens(tokensAfter)} tokens, ` +
    `model ${record.model}, fell back: ${record.fellBack ? "yes" : "no"})` +
    (chunking === "" ? "" : `; summarised ${chunking}`) +
    (restored === "" ? "" : `; ${restored}`) +
    (unverified === 0
      ? ""
      : `; ${plural(unverified, "claim")} of the summary unverified (the ledger shows otherwise)`)
  );
}

/**
 * How the summary was requested and why, e.g. "in 4 chained chunks (5 summary requests): the whole
 * transcript was rejected by anthropic/claude-haiku-4-5 (9120 tokens > 3000 maximum)", or "" when it
 * went in one request.
 */
export function formatChunking(chunks: number | undefined, chunking: SummaryChunking | undefined): string {
  if (chunks === undefined || chunking === undefined) return "";
  const head = `in ${chunks} chained chunks (${plural(chunking.requests, "summary request")})`;
  if (chunking.reason === "cut_up_front")
    return (
      `${head}: cut up front, the provider's own figures put the whole at least ${chunking.leastTokens} ` +
      `tokens (${chunking.estimatedTokens} estimated x ${chunking.ratio.toFixed(2)}, the smallest ratio seen) ` +
      `> ${chunking.contextWindow} maximum for ${chunking.model}`
    );
  const numbers =
    chunking.requestTokens !== undefined && chunking.contextWindow !== undefined
      ? ` (${chunking.requestTokens} tokens > ${chunking.contextWindow} maximum)`
      : " (no sizes stated: chunks cut in half until they fit)";
  return `${head}: the whole transcript was rejected by ${chunking.model}${numbers}`;
}

/** "2 paths and 1 error the summary left out were added", or "" when nothing was restored. */
export function formatRestored(restored: readonly RestoredFact[]): string {
  if (restored.length === 0) return "";
  const count = (kind: RestoredFact["kind"]): number => restored.filter((fact) => fact.kind === kind).length;
  const parts = [
    [count("path"), "path"],
    [count("command"), "command"],
    [count("error"), "error"],
    [count("task"), "task report"],
  ]
    .filter(([n]) => (n as number) > 0)
    .map(([n, noun]) => plural(n as number, noun as string));
  const list = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
  return `${list} the summary left out ${restored.length === 1 ? "was" : "were"} added`;
}

/** The fuller report `/compact` prints afterwards. */
export function formatCompactionReport(
  record: CompactionRecord,
  tokensBefore: number,
  tokensAfter: number,
): string {
  const lines = [
    `Compacted ${plural(record.turnsSummarised, "turn")} into a summary; kept ${plural(record.turnsKept, "turn")} verbatim.`,
    `  next request: ${formatTokens(tokensBefore)} -> ${formatTokens(tokensAfter)} tokens, system prompt and tools included (local estimates: summarised ~${formatTokens(record.tokensSummarised)}, kept ~${formatTokens(record.tokensKept)}, summary ~${formatTokens(record.summaryTokens)})`,
    `  model:    ${record.model} (fell back: ${record.fellBack ? "yes, the compaction model failed" : "no"})`,
    `  sizes:    ${plural(record.sizeSources.usage, "turn")} sized from provider usage, ${record.sizeSources.estimate} from the local estimate`,
  ];
  const chunking = formatChunking(record.chunks, record.chunking);
  lines.push(`  requests: ${chunking === "" ? "the whole transcript in one summary request" : chunking}`);
  if (record.instructions !== undefined) lines.push(`  instructions: ${record.instructions}`);
  if (record.turns !== undefined)
    lines.push(
      `  turns:    the summary stands for turns 1 to ${record.turns.through}; recall finds their full text`,
    );
  const { ledger } = record;
  if (ledger !== undefined)
    lines.push(
      `  ledger:   ${plural(ledger.files.length, "file")} changed, the latest run of ${plural(ledger.commands.length, "command")}`,
    );
  const restored = record.restored ?? [];
  if (restored.length > 0) {
    lines.push(`  restored: ${formatRestored(restored)}:`);
    for (const fact of restored) lines.push(`    ${fact.kind}: ${shorten(fact.text, 100)}`);
  }
  for (const claim of record.unverified ?? [])
    lines.push(`  Unverified: the summary says "${shorten(claim.claim, 100)}", but ${claim.evidence}.`);
  return lines.join("\n");
}

/** "bash: npm test" style one-liner for a tool call; long arguments are shortened. */
export function formatToolCall(call: ToolCallBlock): string {
  const args = call.arguments;
  const main = args.command ?? args.path ?? args.pattern;
  const detail = typeof main === "string" ? main : JSON.stringify(args);
  // The name is the model's too: it is made visible like the arguments.
  return `${visible(call.name)} ${shorten(detail, 100)}`;
}

/**
 * The first line of a tool result, with how many more lines it holds, e.g. "hi (+2 lines)". A
 * failed result also shows its last line, where a command says how it ended ("Exit code: 1",
 * "Command aborted and killed"): "(no output)" alone would hide why it failed. Blank lines and a
 * successful command's closing "Exit code: 0" are not counted as hidden output; `/last` shows
 * the whole result.
 */
export function formatToolResult(result: ToolResultBlock): string {
  const filled = toolResultText(result)
    .split("\n")
    .filter((line) => line.trim() !== "");
  const counted = !result.isError && filled.at(-1) === "Exit code: 0" ? filled.slice(0, -1) : filled;
  const first = shorten(counted[0] ?? "", 100);
  const showLast = counted.length > 1 && result.isError;
  const last = showLast ? ` … ${shorten(counted.at(-1) ?? "", 60)}` : "";
  const hidden = Math.max(0, counted.length - (showLast ? 2 : 1));
  const more = hidden > 0 ? ` (+${plural(hidden, "line")})` : "";
  return `${result.isError ? "error: " : ""}${first}${last}${more}`;
}

/** A tool result's text, an image as "[image TYPE]". */
export function toolResultText(result: ToolResultBlock): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[image ${block.mediaType}]`))
    .join("\n");
}

/**
 * Replaces control characters (escape sequences, carriage returns, ...) with visible `\u001b`-style
 * text, so text from a model or a file cannot move the cursor or restyle the terminal. Newlines and
 * tabs stay.
 */
export function visible(text: string): string {
  return text.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

export function shorten(text: string, max: number): string {
  const flat = visible(text).replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Why a call was denied without a question (print and JSON modes), and the flag that allows it. */
export function toolDeniedText(event: {
  call: ToolCallBlock;
  escape?: true;
  origin?: string;
  rule?: string;
}): string {
  // A subagent's call says which task made it (its origin, as an approval question would).
  const by = event.origin === undefined ? "" : ` (asked by ${visible(event.origin)})`;
  if (event.escape === true)
    return `refused running ${visible(event.call.name)} outside the sandbox${by}: pass --allow-unsandboxed to let the model's escape requests run`;
  // --allow-tools does not lift a rule that asks: only a person, or a change of the rule, can.
  if (event.rule !== undefined)
    return `denied ${visible(event.call.name)}${by}: the permission rule ${visible(event.rule)} asks first, and nobody can be asked here; run it where you can answer (the terminal) or change the rule`;
  return `denied ${visible(event.call.name)}${by}: pass --allow-tools to let write, edit, bash and web_fetch run, or allow it by a permission rule`;
}

/** A run's sandbox in words, for the banner and `/session`. */
export function describeSandbox(record: SandboxRecord): string {
  if (record.mode === "full") return "full (no sandbox: the model's commands run with your rights)";
  const writable = [...record.writableRoots, "a private /tmp"].join(", ");
  return `${record.mode}, network ${record.network ? "on" : "off"}, writable: ${writable}`;
}

/** The one line a clearing gets: how many results left the context and the request's size before and after. */
export function formatClearingLine(event: {
  toolCallIds: readonly string[];
  tokensBefore: number;
  tokensAfter: number;
  reason?: "trigger" | "cold-cache";
}): string {
  const why = event.reason === "cold-cache" ? " (prompt cache expired)" : "";
  return `cleared ${plural(event.toolCallIds.length, "old tool result")} from the context${why}: next request ${formatTokens(event.tokensBefore)} -> ${formatTokens(event.tokensAfter)} tokens; recall {"tool_result": ID} reads one back, /unclear takes them back`;
}
