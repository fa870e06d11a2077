import { basename } from "node:path";
import { entryHoldsImage, imagesFolder } from "../session/index.js";
import { htmlText } from "./clean-text.js";
import type { EffectiveIds } from "./effective-entries.js";
import { EntryStatusTracker } from "./entry-status.js";
import { formatCount } from "./format-count.js";
import { entriesStart, pageEnd, pageStart } from "./page-shell.js";
import {
  CUT_CHARS,
  OTHER_ENTRY_RENDERERS,
  type RenderContext,
  renderCompaction,
  renderGeneric,
  renderInvalid,
  renderMessage,
  renderTurnFailed,
} from "./render-entries.js";
import { renderTimelineSection } from "./render-timeline.js";
import type { SessionScan } from "./scan-session.js";
import { type EntryFields, readSessionLines, type SessionLine } from "./session-lines.js";
import type { TextSink } from "./text-sink.js";
import { TodoChanges } from "./todo-changes.js";

function renderLine(item: SessionLine, tracker: EntryStatusTracker, context: RenderContext): string {
  if (item.kind === "invalid") return renderInvalid(item.text, item.reason, item.line, context);
  if (item.kind === "other") {
    const render = OTHER_ENTRY_RENDERERS[item.fields.type] ?? renderGeneric;
    return render(item.fields, item.line, context);
  }
  const { entry, line } = item;
  if (entry.type === "message")
    return renderMessage(entry, line, tracker.statusOf(line, entry.id, entry.keptBy), context);
  if (entry.type === "compaction") return renderCompaction(entry, line, context);
  return renderTurnFailed(entry, line, context);
}

/** An entry whose fields are not what its type promises is still shown, as its raw fields. */
function renderSafely(item: SessionLine, tracker: EntryStatusTracker, context: RenderContext): string {
  try {
    return renderLine(item, tracker, context);
  } catch {
    if (item.kind === "invalid") return renderInvalid(item.text, item.reason, item.line, context);
    const fields = item.kind === "entry" ? (item.entry as unknown as EntryFields) : item.fields;
    return renderGeneric(fields, item.line, context);
  }
}

/** A message line with its images' bytes read from the folder beside the session (shown inline). */
async function withImages(item: SessionLine, path: string): Promise<SessionLine> {
  if (item.kind !== "entry" || !entryHoldsImage(item.entry)) return item;
  const { loadImages } = await import("../session/session-images.js");
  const [entry] = (await loadImages([item.entry], imagesFolder(path))).entries;
  return entry === undefined ? item : { ...item, entry: entry as typeof item.entry };
}

/** The second pass: streams the page, one entry at a time, after the timeline from the first pass. */
export async function writeHtml(
  path: string,
  scan: SessionScan,
  effective: EffectiveIds,
  context: RenderContext,
  sink: TextSink,
): Promise<void> {
  const { header } = scan;
  const title = `panto session ${htmlText(header.id, context.redact)}`;
  const sandbox =
    scan.sandboxes.length === 0 ? "" : ` · sandbox: ${htmlText(scan.sandboxes.join("; "), context.redact)}`;
  const intro = `<p class="note">Created ${htmlText(header.created, context.redact)} in <code>${htmlText(header.cwd, context.redact)}</code> · file ${htmlText(basename(path), context.redact)} · ${formatCount(scan.entries)} entries${sandbox}</p>`;
  await sink.write(pageStart(title, intro));
  await sink.write(renderTimelineSection(scan));
  await sink.write(entriesStart());
  const tracker = new EntryStatusTracker(scan, effective.messageIds);
  const todos = new TodoChanges();
  for await (const item of readSessionLines(path)) {
    if ("header" in item) continue;
    // A todo call's result shows the list it set: followed here as in the first pass.
    const todoChanges = todos.ofLine(item);
    const shown = todoChanges === undefined ? context : { ...context, todoChanges };
    await sink.write(`${renderSafely(await withImages(item, path), tracker, shown)}\n`);
  }
  const cut = context.full
    ? "Exported with --full: nothing is cut."
    : `Long texts are cut to ${formatCount(CUT_CHARS)} characters (panto export --full keeps them whole).`;
  await sink.write(pageEnd(`Exported by panto. ${cut}`));
}
