import type { RequestSize } from "../../agent/index.js";
import { estimateMessageTokens, estimateTokens, groupTurns } from "../../compaction/index.js";
import type { EffectiveContext, Message } from "../../core/index.js";
import { formatRequestTokens, formatTokens, plural, shorten } from "../format-text.js";

/**
 * What the effective context holds, as `/context` and `panto demo` show it: the compaction block
 * (its summary, indented) and then every turn after it with its estimated size. `requestSize`,
 * when given, is the whole next request as every figure for "the context" gives it
 * (Agent.contextSize), shown as the headline size.
 */
export function describeContext(
  context: EffectiveContext,
  options: { summaryLines?: number; width?: number; requestSize?: RequestSize } = {},
): string {
  const width = options.width ?? 100;
  const lines: string[] = [];
  const turns = groupTurns(context.messages);
  const turnTokens = turns.map((turn) =>
    turn.messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0),
  );
  const summaryTokens = context.compaction === undefined ? 0 : estimateTokens(context.compaction.summary);
  const total = summaryTokens + turnTokens.reduce((sum, tokens) => sum + tokens, 0);
  const size =
    options.requestSize === undefined
      ? `about ${formatTokens(total)} tokens (system prompt not counted)`
      : `next request ${formatRequestTokens(options.requestSize)} ` +
        "(system prompt and tool definitions included; per-turn sizes below are local estimates)";
  lines.push(
    `Effective context: ${context.compaction === undefined ? "no compaction block" : "1 compaction block"}, ` +
      `${plural(turns.length, "turn")}, ${size}.`,
  );
  if (context.compaction !== undefined) {
    lines.push(`[compaction block] summary, ~${formatTokens(summaryTokens)} tokens`);
    const summary = context.compaction.summary.trim().split("\n");
    const shown = options.summaryLines === undefined ? summary : summary.slice(0, options.summaryLines);
    for (const line of shown) lines.push(`    ${line}`);
    if (shown.length < summary.length)
      lines.push(`    … ${plural(summary.length - shown.length, "more line")}`);
  }
  turns.forEach((turn, index) => {
    lines.push(
      `[turn ${index + 1}] ${plural(turn.messages.length, "message")}, ~${formatTokens(turnTokens[index] ?? 0)} tokens`,
    );
    for (const message of turn.messages) lines.push(`    ${describeMessage(message, width)}`);
  });
  return lines.join("\n");
}

function describeMessage(message: Message, width: number): string {
  switch (message.role) {
    case "user":
      return `user: ${shorten(textOf(message.content), width)}`;
    case "assistant": {
      const calls = message.content.filter((block) => block.type === "tool-call").map((block) => block.name);
      const text = shorten(textOf(message.content), width);
      const callNote = calls.length === 0 ? "" : `${text === "" ? "" : " "}[calls ${calls.join(", ")}]`;
      const interrupted = message.stopReason === "aborted" ? " (interrupted)" : "";
      return `assistant: ${text}${callNote}${interrupted}`;
    }
    case "tool":
      return `tool results: ${message.content
        .map((result) => `${result.toolName}${result.isError ? " (error)" : ""}`)
        .join(", ")}`;
  }
}

function textOf(blocks: ReadonlyArray<{ type: string; text?: string }>): string {
  return blocks
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join(" ");
}
