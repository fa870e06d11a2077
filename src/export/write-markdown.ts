import type { ToolResultBlock } from "../core/index.js";
import { cleanText, type Redact } from "./clean-text.js";
import {
  clearedResultsOf,
  clearingName,
  clearingSentence,
  clearingStatusWords,
  unclearSentence,
} from "./clearing-words.js";
import type { EffectiveIds } from "./effective-entries.js";
import { EntryStatusTracker } from "./entry-status.js";
import { formatCount } from "./format-count.js";
import { compactionFailedInfo, pinText, undoneCompactionId } from "./future-entries.js";
import { CUT_CHARS } from "./render-entries.js";
import { describeMark, describeTodoMark } from "./render-timeline.js";
import { sandboxLabel } from "./sandbox-label.js";
import type { ClearingMark, SessionScan } from "./scan-session.js";
import { type EntryFields, readSessionLines, type SessionLine } from "./session-lines.js";
import type { TextSink } from "./text-sink.js";
import { type TodoChange, TodoChanges } from "./todo-changes.js";

export interface MarkdownContext {
  redact: Redact;
  full: boolean;
  /** The task list changes the entry being written makes, by the todo call's id. */
  todoChanges?: ReadonlyMap<string, TodoChange>;
}

const STATUS_WORDS: Record<string, string> = {
  pending: "pending",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/** An accepted todo call as the list it set, as `/todo` words it, with the flags its answer gave. */
function todoChangeMarkdown(change: TodoChange, text: (value: string) => string): string {
  const flagged = change.flagged === 0 ? "" : ` (${formatCount(change.flagged)} flagged)`;
  const items = change.items.map((item, index) => {
    const evidence = item.evidence === undefined ? "" : ` (evidence: \`${text(item.evidence)}\`)`;
    const flag = item.flag === undefined ? "" : `\n   flagged: ${text(item.flag)}`;
    return `${index + 1}. ${STATUS_WORDS[item.status] ?? text(item.status)}: ${text(item.content)}${evidence}${flag}`;
  });
  const list = items.length === 0 ? "The list was cleared." : items.join("\n");
  return `**Task list ${change.ordinal}: ${formatCount(change.completed)} of ${formatCount(change.total)} completed${flagged}**\n\n${list}`;
}

/** A fenced block that no backtick run inside the text can close. */
function fence(text: string, context: MarkdownContext): string {
  const clean = cleanText(context.redact(text));
  const shown = !context.full && clean.length > CUT_CHARS ? clean.slice(0, CUT_CHARS) : clean;
  const longest = Math.max(2, ...(shown.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = "`".repeat(longest + 1);
  const note =
    shown.length < clean.length
      ? `\n(cut to ${formatCount(CUT_CHARS)} of ${formatCount(clean.length)} characters)`
      : "";
  return `${ticks}\n${shown}\n${ticks}${note}`;
}

function toolResultText(block: ToolResultBlock): string {
  const parts = Array.isArray(block.content) ? block.content : [];
  return parts
    .map((part) => (part.type === "text" ? String(part.text) : `[image ${String(part.mediaType)}]`))
    .join("\n");
}

/** The note on a result a clearing in force holds as a stub: the result stays shown, whole, as the file keeps it. */
function clearedNote(mark: ClearingMark | undefined, toolCallId: string): string {
  if (mark === undefined) return "";
  const tokens = mark.resultTokens.get(toolCallId);
  const size = tokens === undefined ? "" : `, ${formatCount(tokens)} tokens`;
  return ` · cleared from the context by ${clearingName(mark)}${size}: the next request carries a one-line stub; recall reads it back`;
}

function messageMarkdown(
  item: Extract<SessionLine, { kind: "entry" }>,
  scan: SessionScan,
  tracker: EntryStatusTracker,
  context: MarkdownContext,
): string {
  const entry = item.entry;
  if (entry.type !== "message") return "";
  const status = tracker.statusOf(item.line, entry.id, entry.keptBy);
  const notes = [
    status.summarisedBy === undefined ? "" : `summarised by compaction ${status.summarisedBy.ordinal}`,
    status.keptBy === undefined ? "" : `kept verbatim by compaction ${status.keptBy.ordinal}`,
    status.failed ? "failed turn" : "",
    status.effective ? "in the effective context" : "",
  ].filter((note) => note !== "");
  const heading = `### ${entry.message.role} · line ${item.line}${notes.length === 0 ? "" : ` · ${notes.join(", ")}`}`;
  if (entry.keptBy !== undefined)
    return `${heading}\n\nKept copy of line ${status.copyOf ?? "?"} (shown once, above).`;
  const text = (value: string) => cleanText(context.redact(value));
  const body = entry.message.content.map((block) => {
    switch (block.type) {
      case "text":
        return entry.message.role === "assistant"
          ? text(String(block.text))
          : text(String(block.text)).replace(/^/gm, "> ");
      case "thinking":
        return `<details><summary>thinking</summary>\n\n${fence(String(block.text ?? ""), context)}\n\n</details>`;
      case "tool-call":
        return `Tool call \`${text(String(block.name))}\`:\n\n${fence(JSON.stringify(block.arguments, null, 2) ?? "", context)}`;
      case "tool-result": {
        const result = toolResultText(block);
        const change = context.todoChanges?.get(String(block.toolCallId));
        const list = change === undefined ? "" : `${todoChangeMarkdown(change, text)}\n\n`;
        const callId = String(block.toolCallId);
        const cleared = clearedNote(scan.clearingOf(item.line, callId), callId);
        return `${list}<details><summary>result of ${text(String(block.toolName))}${block.isError ? " (error)" : ""}, ${formatCount(result.length)} characters${cleared}</summary>\n\n${fence(result, context)}\n\n</details>`;
      }
      default:
        return `[${block.type}]`;
    }
  });
  return `${heading}\n\n${body.join("\n\n")}`;
}

function lineMarkdown(
  item: SessionLine,
  scan: SessionScan,
  tracker: EntryStatusTracker,
  context: MarkdownContext,
): string {
  const text = (value: string) => cleanText(context.redact(value));
  if (item.kind === "invalid") return `### unreadable line ${item.line} (${item.reason})`;
  if (item.kind === "other") {
    if (item.fields.type === "compaction-failed") {
      const info = compactionFailedInfo(item.fields);
      return `## Compaction failed (${text(info.trigger)}) · line ${item.line}\n\n${info.attempts.map((attempt) => `- ${text(attempt.model)}: ${text(attempt.code)}: ${text(attempt.message)}`).join("\n")}`;
    }
    const sandbox = sandboxLabel(item.fields);
    if (sandbox !== undefined) return `### sandbox: ${text(sandbox)} · line ${item.line}`;
    if (item.fields.type === "model" && typeof item.fields.model === "string")
      return `### model switched to ${text(item.fields.model)} · line ${item.line}`;
    if (item.fields.type === "clearing") return clearingMarkdown(item.fields, item.line, scan, text);
    if (item.fields.type === "unclear") return unclearMarkdown(item.fields, item.line, scan, text);
    const control = controlMarkdown(item.fields, scan, text);
    if (control !== undefined) return `### ${control} · line ${item.line}`;
    return `### ${text(item.fields.type)} · line ${item.line}\n\n${fence(JSON.stringify(item.fields, null, 2), context)}`;
  }
  const { entry } = item;
  if (entry.type === "message") return messageMarkdown(item, scan, tracker, context);
  if (entry.type === "turn-failed")
    return `### turn failed · line ${item.line}\n\n${text(`${entry.code}: ${entry.error}`)}`;
  const mark = scan.compactions.find((candidate) => candidate.id === entry.id);
  const title = mark === undefined ? `Compaction (${entry.trigger})` : describeMark(mark);
  const restored = (entry.restored ?? []).map((fact) => `- ${fact.kind}: ${text(fact.text)}`);
  const pins = (entry.pins ?? []).map((pin) => `- ${text(pin.text)}`);
  return [
    `## ${text(title)} · line ${item.line}`,
    `${formatCount(entry.turnsSummarised)} turns summarised, ${formatCount(entry.turnsKept)} kept · model ${text(entry.model)}${entry.fellBack ? " (fell back)" : ""}`,
    fence(entry.summary, context),
    restored.length === 0 ? "" : `Restored:\n\n${restored.join("\n")}`,
    pins.length === 0 ? "" : `Pinned notes:\n\n${pins.join("\n")}`,
  ]
    .filter((part) => part !== "")
    .join("\n\n");
}

/** A clearing entry: its figures, whether it is in force, and the results it stubs (they stay whole above). */
function clearingMarkdown(
  fields: EntryFields,
  line: number,
  scan: SessionScan,
  text: (value: string) => string,
) {
  const mark = scan.clearings.find((candidate) => candidate.line === line);
  const status = mark === undefined ? "" : ` · ${clearingStatusWords(mark)}`;
  const list = clearedResultsOf(fields).map((result) => {
    const tokens = result.tokens === undefined ? "" : `, ${formatCount(result.tokens)} tokens`;
    return `- \`${text(result.id)}\` (${text(result.tool)}${tokens})`;
  });
  const title = mark === undefined ? "clearing" : `clearing ${mark.ordinal}`;
  return `### ${title} · line ${line}${status}\n\n${clearingSentence(fields, text)}${list.length === 0 ? "" : `\n\n${list.join("\n")}`}`;
}

/** `/unclear`: which clearing it took back, and the sizes. */
function unclearMarkdown(
  fields: EntryFields,
  line: number,
  scan: SessionScan,
  text: (value: string) => string,
): string {
  return `### unclear · line ${line}\n\n${unclearSentence(fields, line, scan.clearings, text)}`;
}

/** One line for a pin, unpin or uncompact entry; undefined for other entry types. */
function controlMarkdown(
  fields: EntryFields,
  scan: SessionScan,
  text: (value: string) => string,
): string | undefined {
  if (fields.type === "pin") return `pinned note: ${text(pinText(fields) ?? "")}`;
  if (fields.type === "unpin") {
    const pinLine = typeof fields.pinId === "string" ? scan.pinLines.get(fields.pinId) : undefined;
    return `unpinned the note pinned at line ${pinLine ?? "?"}`;
  }
  const undone = undoneCompactionId(fields);
  if (undone === undefined) return undefined;
  const mark = scan.compactions.find((candidate) => candidate.id === undone);
  return mark === undefined
    ? `compaction ${text(undone)} undone`
    : `compaction ${mark.ordinal} (line ${mark.line}) undone`;
}

/** The task list's changes under the timeline, each with where it is; nothing without any. */
function todoMarksMarkdown(scan: SessionScan): string {
  if (scan.todos.length === 0) return "";
  const lines = scan.todos.map(
    (mark) =>
      `${mark.ordinal}. ${describeTodoMark(mark)} (after request ${mark.afterRequest}, line ${mark.line})`,
  );
  return `### Task list\n\n${lines.join("\n")}\n\n`;
}

/** The clearings under the timeline, each with its figures and whether it is in force; nothing without any. */
function clearingMarksMarkdown(scan: SessionScan): string {
  if (scan.clearings.length === 0) return "";
  const lines = scan.clearings.map((mark) => {
    const tokens = [...mark.resultTokens.values()].reduce((sum, value) => sum + value, 0);
    const sizes =
      mark.tokensBefore === undefined || mark.tokensAfter === undefined
        ? ""
        : `, next request ${formatCount(mark.tokensBefore)} -> ${formatCount(mark.tokensAfter)} tokens`;
    const count = mark.resultTokens.size;
    return `${mark.ordinal}. ${formatCount(count)} tool result${count === 1 ? "" : "s"} (${formatCount(tokens)} tokens) cleared${sizes}: ${clearingStatusWords(mark)} (line ${mark.line})`;
  });
  return `### Clearings\n\n${lines.join("\n")}\n\n`;
}

function sandboxLine(scan: SessionScan, text: (value: string) => string): string {
  return scan.sandboxes.length === 0 ? "" : ` Sandbox: ${scan.sandboxes.map(text).join("; ")}.`;
}

/** `--format md`: the timeline as a list and every entry in file order, for pasting into an issue. */
export async function writeMarkdown(
  path: string,
  scan: SessionScan,
  effective: EffectiveIds,
  context: MarkdownContext,
  sink: TextSink,
): Promise<void> {
  const { header, totals } = scan;
  const text = (value: string) => cleanText(context.redact(value));
  await sink.write(
    `# panto session ${text(header.id)}\n\nCreated ${text(header.created)} in \`${text(header.cwd)}\`.${sandboxLine(scan, text)}\n\n`,
  );
  await sink.write(
    `## Timeline\n\n${formatCount(totals.requests)} model requests · ${formatCount(totals.inputTokens)} input, ${formatCount(totals.outputTokens)} output, ${formatCount(totals.cacheReadTokens)} cache read, ${formatCount(totals.cacheWriteTokens)} cache write tokens · ${formatCount(totals.compactionCalls)} compaction calls${scan.window === undefined ? "" : ` · context window ${formatCount(scan.window)}`}\n\n`,
  );
  await sink.write(
    `${scan.compactions.map((mark) => `${mark.ordinal}. ${describeMark(mark)} (after request ${mark.afterRequest}, line ${mark.line})`).join("\n")}\n\n${todoMarksMarkdown(scan)}${clearingMarksMarkdown(scan)}## Entries\n\n`,
  );
  const tracker = new EntryStatusTracker(scan, effective.messageIds);
  const todos = new TodoChanges();
  for await (const item of readSessionLines(path)) {
    if ("header" in item) continue;
    // A todo call's result shows the list it set, as on the HTML page.
    const todoChanges = todos.ofLine(item);
    const shown = todoChanges === undefined ? context : { ...context, todoChanges };
    await sink.write(`${lineMarkdown(item, scan, tracker, shown)}\n\n`);
  }
}
