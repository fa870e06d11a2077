import {
  type AssistantMessage,
  IMAGE_MEDIA_TYPES,
  type ImageBlock,
  imagePlaceholder,
  type TextBlock,
  type ToolResultBlock,
} from "../core/index.js";
import type { CompactionEntry, MessageEntry, TurnFailedEntry } from "../session/index.js";
import { cleanText, escapeHtml, htmlText, type Redact } from "./clean-text.js";
import {
  clearedResultsOf,
  clearingSentence,
  clearingStatusWords,
  unclearSentence,
} from "./clearing-words.js";
import type { EntryStatus } from "./entry-status.js";
import { formatCount } from "./format-count.js";
import { compactionExtras, compactionFailedInfo, pinText, undoneCompactionId } from "./future-entries.js";
import type { MarkdownToHtml } from "./render-markdown.js";
import { describeMark } from "./render-timeline.js";
import { sandboxLabel } from "./sandbox-label.js";
import type { ClearingMark, CompactionMark } from "./scan-session.js";
import type { EntryFields } from "./session-lines.js";
import type { TodoChange } from "./todo-changes.js";

/** Tool results and other long texts are cut to this many characters on the page unless --full. */
export const CUT_CHARS = 4000;

/** What every entry renderer needs besides the entry. */
export interface RenderContext {
  redact: Redact;
  /** Keep long texts whole (--full). */
  full: boolean;
  markdown: MarkdownToHtml;
  /** Compaction marks by entry id (from the first pass). */
  marks: ReadonlyMap<string, CompactionMark>;
  /** The line of each pin entry by id (from the first pass). */
  pinLines: ReadonlyMap<string, number>;
  /** The compaction entry the effective context starts at, if any. */
  effectiveCompactionId?: string;
  /** Whether a clearing in force holds a stub for this result (from the first pass). */
  cleared?: (line: number, toolCallId: string) => boolean;
  /** Every clearing entry with its figures and whether it is in force (from the first pass). */
  clearings?: readonly ClearingMark[];
  /** The task list changes the entry being rendered makes, by the todo call's id. */
  todoChanges?: ReadonlyMap<string, TodoChange>;
}

const lineLink = (line: number, text = `line ${line}`): string => `<a href="#L${line}">${text}</a>`;

/** Session text in a <pre>, cut to CUT_CHARS (unless full) with the full length said. */
function preformatted(text: string, context: RenderContext, className = ""): string {
  const cut = !context.full && text.length > CUT_CHARS;
  const shown = cut ? text.slice(0, CUT_CHARS) : text;
  const note = cut
    ? `<p class="cut">Cut to ${formatCount(CUT_CHARS)} of ${formatCount(text.length)} characters (panto export --full keeps it whole).</p>`
    : "";
  return `<pre${className === "" ? "" : ` class="${className}"`}>${htmlText(shown, context.redact)}</pre>${note}`;
}

function header(line: number, label: string, ts: unknown, badges: string[]): string {
  const time = typeof ts === "string" ? ` <time>${escapeHtml(ts)}</time>` : "";
  return `<header><span class="label">${label}</span>${time}${badges.map((badge) => ` <span class="badge">${badge}</span>`).join("")} ${lineLink(line, `#${line}`)}</header>`;
}

function statusBadges(status: EntryStatus): string[] {
  const badges: string[] = [];
  if (status.failed) badges.push("failed turn: left out of the context");
  if (status.summarisedBy !== undefined)
    badges.push(
      `summarised by ${lineLink(status.summarisedBy.line, `compaction ${status.summarisedBy.ordinal}`)}`,
    );
  if (status.keptBy !== undefined)
    badges.push(`kept verbatim by ${lineLink(status.keptBy.line, `compaction ${status.keptBy.ordinal}`)}`);
  if (status.effective) badges.push("in the effective context");
  return badges;
}

function statusClasses(status: EntryStatus): string {
  return [
    status.failed ? "failed" : "",
    status.summarisedBy !== undefined ? "summarised" : "",
    status.keptBy !== undefined ? "kept" : "",
    status.effective ? "effective" : "",
  ]
    .filter((name) => name !== "")
    .join(" ");
}

function blockText(block: TextBlock | ImageBlock, context: RenderContext): string {
  if (block.type === "image") return imageFigure(block, context);
  return preformatted(String(block.text), context, "prompt");
}

/** Base64 and nothing else: what may go into a data: URL inside an attribute. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * An image shown inline as a data: URL (the page loads nothing else) with its one-line
 * placeholder under it; without its bytes (its stored file gone) or of a type panto does not send,
 * the placeholder alone.
 */
function imageFigure(block: ImageBlock, context: RenderContext): string {
  const caption = htmlText(imagePlaceholder(block), context.redact);
  const { data, mediaType } = block;
  const showable =
    typeof data === "string" &&
    BASE64.test(data) &&
    (IMAGE_MEDIA_TYPES as readonly string[]).includes(mediaType);
  if (!showable) return `<p class="image">${caption}</p>`;
  const alt = htmlText(String(block.name ?? mediaType), context.redact);
  return `<figure class="image"><img src="data:${mediaType};base64,${data}" alt="${alt}"><figcaption>${caption}</figcaption></figure>`;
}

function toolResult(block: ToolResultBlock, context: RenderContext, line: number): string {
  const parts = Array.isArray(block.content) ? block.content : [];
  const text = parts
    .map((part) => (part.type === "text" ? String(part.text) : `[image ${String(part.mediaType)}]`))
    .join("\n");
  const error = block.isError ? " error" : "";
  const cleared =
    context.cleared?.(line, String(block.toolCallId)) === true
      ? " · cleared from the context (the next request carries a one-line stub; recall reads it back)"
      : "";
  const change = context.todoChanges?.get(String(block.toolCallId));
  const list = change === undefined ? "" : renderTodoChange(change, context);
  const images = parts
    .filter((part): part is ImageBlock => part.type === "image")
    .map((part) => imageFigure(part, context))
    .join("");
  return `${list}<details class="tool-result${error}"><summary>Result of <code>${htmlText(String(block.toolName), context.redact)}</code>${block.isError ? " (error)" : ""} · ${formatCount(text.length)} characters${cleared}</summary>${preformatted(text, context)}${images}</details>`;
}

/** A status as the page says it. */
const TODO_STATUS_WORDS: Record<string, string> = {
  pending: "pending",
  in_progress: "in progress",
  completed: "completed",
  cancelled: "cancelled",
};

/**
 * An accepted todo call as the task list it set, as it stood then: each item with its status, its
 * evidence and the flag the call's answer gave it (an id, `todo-N`, the timeline links to).
 */
export function renderTodoChange(change: TodoChange, context: RenderContext): string {
  const text = (value: string): string => htmlText(value, context.redact);
  const flagged = change.flagged === 0 ? "" : ` (${formatCount(change.flagged)} flagged)`;
  const title = `Task list ${change.ordinal}: ${formatCount(change.completed)} of ${formatCount(change.total)} completed${flagged}`;
  const items = change.items.map((item) => {
    const classes = `todo ${item.status.replace("_", "-")}${item.flag === undefined ? "" : " flagged"}`;
    const evidence =
      item.evidence === undefined
        ? ""
        : ` <span class="evidence">evidence: <code>${text(item.evidence)}</code></span>`;
    const flag = item.flag === undefined ? "" : `<p class="flag">flagged: ${text(item.flag)}</p>`;
    return `<li class="${classes}"><span class="status">${TODO_STATUS_WORDS[item.status] ?? text(item.status)}</span> ${text(item.content)}${evidence}${flag}</li>`;
  });
  const list =
    change.items.length === 0 ? `<p class="note">The list was cleared.</p>` : `<ol>${items.join("")}</ol>`;
  return `<section class="todo-list" id="todo-${change.ordinal}" aria-label="${title}"><h4>${title}</h4>${list}</section>`;
}

function assistantBody(message: AssistantMessage, context: RenderContext): string {
  const parts = message.content.map((block) => {
    if (block.type === "text")
      return `<div class="markdown">${context.markdown(htmlSource(String(block.text), context))}</div>`;
    if (block.type === "thinking")
      return block.redacted !== undefined && (block.text ?? "") === ""
        ? `<p class="thinking">(reasoning the provider keeps encrypted)</p>`
        : `<details class="thinking"><summary>Thinking · ${formatCount(String(block.text).length)} characters</summary>${preformatted(String(block.text), context)}</details>`;
    return `<div class="tool-call"><span class="label">Tool call</span> <code>${htmlText(String(block.name), context.redact)}</code>${preformatted(JSON.stringify(block.arguments, null, 2) ?? "", context)}</div>`;
  });
  if (message.errorMessage !== undefined)
    parts.push(
      `<p class="error">Error (${htmlText(String(message.errorCode ?? "other"), context.redact)}): ${htmlText(String(message.errorMessage), context.redact)}</p>`,
    );
  return parts.join("");
}

/** Markdown source from a session: redacted, with control characters and lone surrogates cleaned. */
function htmlSource(text: string, context: RenderContext): string {
  return cleanText(context.redact(text));
}

function usageLine(message: AssistantMessage, context: RenderContext): string {
  const usage = message.usage;
  const sizes =
    usage === undefined
      ? "no usage reported"
      : `${formatCount(usage.promptTokens)} prompt tokens, ${formatCount(usage.outputTokens)} output${usage.cacheReadTokens === undefined ? "" : `, ${formatCount(usage.cacheReadTokens)} from cache`}`;
  return `<p class="meta">${htmlText(`${message.provider}/${message.model}`, context.redact)} · ${sizes} · stop: ${htmlText(String(message.stopReason), context.redact)}</p>`;
}

const ROLE_LABELS = { user: "User", assistant: "Assistant", tool: "Tool results" } as const;

/** A message entry: a prompt, an answer or tool results; a kept copy is shown as a pointer to its original. */
export function renderMessage(
  entry: MessageEntry,
  line: number,
  status: EntryStatus,
  context: RenderContext,
): string {
  const { message } = entry;
  const role = ROLE_LABELS[message.role] ?? "Message";
  const classes = `entry ${message.role} ${statusClasses(status)}`.trimEnd();
  if (entry.keptBy !== undefined) {
    const mark = context.marks.get(entry.keptBy);
    const source =
      status.copyOf === undefined
        ? "an earlier message"
        : lineLink(status.copyOf, `the ${role.toLowerCase()} message at line ${status.copyOf}`);
    const by = mark === undefined ? "a compaction" : lineLink(mark.line, `compaction ${mark.ordinal}`);
    return `<article class="${classes} copy" id="L${line}">${header(line, `${role} (kept copy)`, entry.ts, statusBadges(status))}<p class="note">Copy of ${source}, written by ${by} to keep it verbatim; shown once, above.</p></article>`;
  }
  let body: string;
  if (message.role === "user") body = message.content.map((block) => blockText(block, context)).join("");
  else if (message.role === "tool")
    body = message.content.map((block) => toolResult(block, context, line)).join("");
  else body = assistantBody(message, context) + usageLine(message, context);
  return `<article class="${classes}" id="L${line}">${header(line, role, entry.ts, statusBadges(status))}${body}</article>`;
}

function definitionList(rows: Array<[string, string | undefined]>): string {
  return `<dl class="facts">${rows
    .filter((row): row is [string, string] => row[1] !== undefined)
    .map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`)
    .join("")}</dl>`;
}

/** A compaction block: what it replaced, its sizes, model, duration, summary and restored facts. */
export function renderCompaction(entry: CompactionEntry, line: number, context: RenderContext): string {
  const mark = context.marks.get(entry.id);
  const extras = compactionExtras(entry as unknown as EntryFields);
  const text = (value: string): string => htmlText(value, context.redact);
  const replaced =
    mark?.firstReplacedLine === undefined
      ? "nothing earlier in this file"
      : `from ${lineLink(mark.firstReplacedLine)} on`;
  const effective = entry.id === context.effectiveCompactionId;
  const classes = [
    "compaction",
    `trigger-${text(String(entry.trigger))}`,
    mark?.status ?? "applied",
    effective ? "effective" : "",
  ]
    .join(" ")
    .trimEnd();
  const facts = definitionList([
    ["Replaced", `${formatCount(entry.turnsSummarised)} turns, ${replaced}`],
    [
      "Kept verbatim",
      `${formatCount(entry.turnsKept)} turns (${formatCount(entry.keptMessages ?? mark?.keptOriginals.size ?? 0)} messages copied after this block)`,
    ],
    [
      "Sizes",
      `${formatCount(entry.tokensSummarised)} tokens summarised, ${formatCount(entry.tokensKept)} kept, summary ${formatCount(entry.summaryTokens)}`,
    ],
    [
      "Model",
      `${text(String(entry.model))}${entry.fellBack ? " (compaction_model failed: fell back to the active model)" : ""}`,
    ],
    ["Duration", extras.durationMs === undefined ? undefined : `${(extras.durationMs / 1000).toFixed(1)} s`],
    ["Summary requests", entry.chunks === undefined ? undefined : `${formatCount(entry.chunks)} (chained)`],
    ["Instructions", entry.instructions === undefined ? undefined : text(entry.instructions)],
    ["Edited from", editedFrom(entry, context)],
    [
      "Sizes from",
      `${formatCount(entry.sizeSources?.usage ?? 0)} turns by usage, ${formatCount(entry.sizeSources?.estimate ?? 0)} by estimate`,
    ],
  ]);
  const restored =
    extras.restored.length === 0
      ? ""
      : `<h4>Restored</h4><ul class="restored">${extras.restored.map((item) => `<li><span class="label">${text(item.kind)}</span> ${text(item.text)}</li>`).join("")}</ul>`;
  const pins =
    entry.pins === undefined || entry.pins.length === 0
      ? ""
      : `<h4>Pinned notes</h4><ol class="pins">${entry.pins.map((pin) => `<li>${text(pin.text)}</li>`).join("")}</ol>`;
  const title = mark === undefined ? `Compaction (${text(String(entry.trigger))})` : text(describeMark(mark));
  const state = effective
    ? `<p class="badge">The effective context starts here: the next request carries this summary and the messages after it.</p>`
    : "";
  return `<section class="${classes}" id="L${line}" aria-label="${title}"><h3>${title}</h3>${header(line, "Compaction", entry.ts, [])}${state}${facts}<h4>Summary</h4><div class="markdown summary">${context.markdown(htmlSource(entry.summary, context))}</div>${restored}${pins}</section>`;
}

export function renderTurnFailed(entry: TurnFailedEntry, line: number, context: RenderContext): string {
  return `<article class="entry turn-failed" id="L${line}">${header(line, "Turn failed", entry.ts, [])}<p class="error">${htmlText(`${entry.code}: ${entry.error}`, context.redact)}</p><p class="note">The turn from entry ${htmlText(entry.firstEntryId, context.redact)} to here is left out of the context.</p></article>`;
}

/** A compaction that failed (entry type `compaction-failed`, shape guessed in future-entries.ts). */
export function renderCompactionFailed(fields: EntryFields, line: number, context: RenderContext): string {
  const info = compactionFailedInfo(fields);
  const mark = typeof fields.id === "string" ? context.marks.get(fields.id) : undefined;
  const title = mark === undefined ? `Compaction failed (${info.trigger})` : describeMark(mark);
  const attempts = info.attempts
    .map(
      (attempt) =>
        `<li><code>${htmlText(attempt.model, context.redact)}</code> ${htmlText(attempt.code, context.redact)}: ${htmlText(attempt.message, context.redact)}</li>`,
    )
    .join("");
  return `<section class="compaction failed trigger-${htmlText(info.trigger, context.redact)}" id="L${line}" aria-label="${htmlText(title, context.redact)}"><h3>${htmlText(title, context.redact)}</h3>${header(line, "Compaction failed", fields.ts, [])}<ol class="attempts">${attempts}</ol></section>`;
}

export function renderUncompact(fields: EntryFields, line: number, context: RenderContext): string {
  const id = undoneCompactionId(fields) ?? "?";
  const mark = context.marks.get(id);
  const target =
    mark === undefined
      ? `compaction ${htmlText(id, context.redact)}`
      : lineLink(mark.line, `compaction ${mark.ordinal}`);
  return `<article class="entry uncompact" id="L${line}">${header(line, "Compaction undone", fields.ts, [])}<p>${target} was undone.</p></article>`;
}

export function renderPin(fields: EntryFields, line: number, context: RenderContext): string {
  return `<article class="entry pin" id="L${line}">${header(line, "Pinned note", fields.ts, [])}${preformatted(pinText(fields) ?? "", context)}</article>`;
}

/** An unpin: which pinned note it ends, linked to the pin entry when the file has it. */
export function renderUnpin(fields: EntryFields, line: number, context: RenderContext): string {
  const pinId = typeof fields.pinId === "string" ? fields.pinId : "?";
  const pinLine = context.pinLines.get(pinId);
  const target =
    pinLine === undefined
      ? `the note pinned by entry ${htmlText(pinId, context.redact)}`
      : lineLink(pinLine, `the note pinned at line ${pinLine}`);
  return `<article class="entry unpin" id="L${line}">${header(line, "Unpinned", fields.ts, [])}<p>${target} is no longer pinned.</p></article>`;
}

/** For an edited summary: a link to the compaction whose summary the user replaced. */
function editedFrom(entry: CompactionEntry, context: RenderContext): string | undefined {
  if (entry.editedFrom === undefined) return undefined;
  const original = context.marks.get(entry.editedFrom);
  return original === undefined
    ? `compaction ${htmlText(entry.editedFrom, context.redact)}`
    : lineLink(original.line, `compaction ${original.ordinal}`);
}

/** `model`: the user switched models (`/model`); later answers come from this one. */
export function renderModelSwitch(fields: EntryFields, line: number, context: RenderContext): string {
  const model = typeof fields.model === "string" ? fields.model : "?";
  return `<article class="entry model" id="L${line}">${header(line, "Model switched", fields.ts, [])}<p>${htmlText(model, context.redact)}</p></article>`;
}

export function renderSandbox(fields: EntryFields, line: number, context: RenderContext): string {
  const label = sandboxLabel(fields) ?? "?";
  return `<article class="entry model" id="L${line}">${header(line, "Sandbox", fields.ts, [])}<p>${htmlText(label, context.redact)}</p></article>`;
}

/** A clearing (issue 34): its figures, whether it is in force, and the results it stubs (shown whole above). */
export function renderClearing(fields: EntryFields, line: number, context: RenderContext): string {
  const mark = context.clearings?.find((candidate) => candidate.line === line);
  const title = mark === undefined ? "Clearing" : `Clearing ${mark.ordinal} · ${clearingStatusWords(mark)}`;
  const items = clearedResultsOf(fields).map((result) => {
    const tokens = result.tokens === undefined ? "" : `, ${formatCount(result.tokens)} tokens`;
    return `<li><code>${htmlText(result.id, context.redact)}</code> (${htmlText(result.tool, context.redact)}${tokens})</li>`;
  });
  const list = items.length === 0 ? "" : `<ul>${items.join("")}</ul>`;
  return `<article class="entry clearing" id="L${line}">${header(line, title, fields.ts, [])}<p>${escapeHtml(clearingSentence(fields, context.redact))}</p>${list}</article>`;
}

/** `/unclear`: which clearing it took back, whether that still holds, and the sizes. */
export function renderUnclear(fields: EntryFields, line: number, context: RenderContext): string {
  const sentence = unclearSentence(fields, line, context.clearings ?? [], context.redact);
  return `<article class="entry unclear" id="L${line}">${header(line, "Clearing taken back", fields.ts, [])}<p>${escapeHtml(sentence)}</p></article>`;
}

/** Any other entry type: its type, time and fields as escaped JSON, so nothing is hidden. */
export function renderGeneric(fields: EntryFields, line: number, context: RenderContext): string {
  return `<article class="entry other" id="L${line}">${header(line, `Entry “${htmlText(fields.type, context.redact)}”`, fields.ts, [])}${preformatted(JSON.stringify(fields, null, 2), context)}</article>`;
}

export function renderInvalid(text: string, reason: string, line: number, context: RenderContext): string {
  return `<article class="entry invalid" id="L${line}">${header(line, `Unreadable line (${escapeHtml(reason)})`, undefined, [])}${preformatted(text, { ...context, full: false })}</article>`;
}

/** Renderers for entry types that are not in SessionEntry yet, by type. */
export const OTHER_ENTRY_RENDERERS: Record<
  string,
  (fields: EntryFields, line: number, context: RenderContext) => string
> = {
  "compaction-failed": renderCompactionFailed,
  uncompact: renderUncompact,
  pin: renderPin,
  unpin: renderUnpin,
  model: renderModelSwitch,
  sandbox: renderSandbox,
  clearing: renderClearing,
  unclear: renderUnclear,
};
