import { groupTurns } from "../../compaction/index.js";
import type { EffectiveContext, Message, Turn } from "../../core/index.js";
import { plural } from "../../runtime/format-text.js";

/** How many of the latest turns a resumed session shows. */
export const RECAP_TURNS = 3;
const LINE_CHARS = 100;

/** One line of the recap and how it is shown. */
export type RecapLine = { kind: "user" | "answer" | "collapsed"; text: string };

/**
 * What a resumed session shows of its conversation: the latest turns, each as its prompt's first
 * line and the start of its answer (tool calls counted, not shown), and what comes before them
 * collapsed into one line (the compaction block, the earlier turns), as the banner counts them.
 */
export function resumeRecap(context: EffectiveContext, turns = RECAP_TURNS): RecapLine[] {
  const all = groupTurns(context.messages);
  const shown = all.slice(-turns);
  const earlier = all.length - shown.length;
  const collapsed = [
    ...(context.compaction === undefined ? [] : ["a compaction block (the summary of older turns)"]),
    ...(earlier === 0 ? [] : [`${plural(earlier, "earlier turn")}`]),
  ];
  return [
    ...(collapsed.length === 0 ? [] : [{ kind: "collapsed" as const, text: `… ${collapsed.join(" and ")}` }]),
    ...shown.flatMap(turnLines),
  ];
}

function turnLines(turn: Turn): RecapLine[] {
  const [first, ...rest] = turn.messages;
  const prompt = first?.role === "user" ? firstLine(textOf(first)) : "";
  const answer = rest.flatMap((message) => (message.role === "assistant" ? [textOf(message)] : []));
  const calls = rest.reduce(
    (count, message) =>
      message.role === "assistant"
        ? count + message.content.filter((block) => block.type === "tool-call").length
        : count,
    0,
  );
  const said = firstLine(answer.filter((text) => text.trim() !== "").at(-1) ?? "");
  const toolNote = calls === 0 ? "" : `(${plural(calls, "tool call")}) `;
  const answerText = `${toolNote}${said}`.trim();
  return [
    { kind: "user", text: prompt === "" ? "(no prompt text)" : prompt },
    ...(answerText === "" ? [] : [{ kind: "answer" as const, text: answerText }]),
  ];
}

function textOf(message: Message): string {
  return message.content
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
}

/** The first non-empty line, cut to one terminal line with an ellipsis when it, or the text, goes on. */
function firstLine(text: string): string {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  const line = (lines[0] ?? "").replace(/\s+/g, " ").trim();
  if (line.length > LINE_CHARS) return `${line.slice(0, LINE_CHARS - 1)}…`;
  return lines.length > 1 ? `${line} …` : line;
}
