import { escapeHtml } from "./clean-text.js";
import { formatCount, formatShort } from "./format-count.js";
import type { CompactionMark, SessionScan, TodoMark, Totals } from "./scan-session.js";
import { type PlotMarker, TIMELINE_BOX, timelineGeometry } from "./timeline-geometry.js";

const round = (value: number): string => (Math.round(value * 10) / 10).toString();

/** "Compaction 2 (overflow): 180,000 -> 12,000 tokens" and the like: a marker's name and tooltip. */
export function describeMark(mark: CompactionMark): string {
  const name = `Compaction ${mark.ordinal} (${mark.trigger})`;
  if (mark.status === "failed") return `${name} failed; the session was left unchanged`;
  const sizes =
    mark.before === undefined || mark.after === undefined
      ? ""
      : `: ${formatCount(mark.before)} → ${formatCount(mark.after)} tokens (${mark.after > mark.before ? "+" : "−"}${formatCount(Math.abs(mark.before - mark.after))})`;
  const status =
    mark.status === "undone"
      ? ", undone"
      : mark.status === "incomplete"
        ? ", cut off (ignored by replay)"
        : "";
  return `${name}${sizes}${status}`;
}

/** "Task list 2: 3 of 5 completed (1 flagged)": a task list change's name and tooltip. */
export function describeTodoMark(mark: TodoMark): string {
  const flagged = mark.flagged === 0 ? "" : ` (${formatCount(mark.flagged)} flagged)`;
  return `Task list ${mark.ordinal}: ${formatCount(mark.completed)} of ${formatCount(mark.total)} completed${flagged}`;
}

/** A change of the task list: a small diamond on the baseline, linking to the list as it stood. */
function renderTodoMarker(mark: TodoMark, x: number, baseY: number): string {
  const label = escapeHtml(describeTodoMark(mark));
  const flagged = mark.flagged === 0 ? "" : " flagged";
  return `<a class="todo-marker${flagged}" href="#todo-${mark.ordinal}" aria-label="${label}"><title>${label}</title><path d="M${round(x)} ${round(baseY - 6)}l5 6l-5 6l-5 -6z"/></a>`;
}

function renderMarker(marker: PlotMarker): string {
  const { mark, x } = marker;
  const label = escapeHtml(describeMark(mark));
  const top = Math.min(marker.yBefore, marker.yAfter);
  const shape =
    mark.status === "failed"
      ? `<path class="cross" d="M${round(x - 5)} ${round(top - 5)}l10 10m0 -10l-10 10"/>`
      : `<line class="drop" x1="${round(x)}" y1="${round(marker.yBefore)}" x2="${round(x)}" y2="${round(marker.yAfter)}"/><circle cx="${round(x)}" cy="${round(marker.yBefore)}" r="4.5"/>`;
  return `<a class="marker ${mark.status} trigger-${escapeHtml(mark.trigger)}" href="#L${mark.line}" aria-label="${label}"><title>${label}</title><line class="rule" x1="${round(x)}" y1="${TIMELINE_BOX.top}" x2="${round(x)}" y2="${TIMELINE_BOX.height - TIMELINE_BOX.bottom}"/>${shape}</a>`;
}

/** The context-size chart: one point per model request, a marker per compaction, the window line. */
export function renderTimelineSvg(scan: SessionScan): string {
  const box = TIMELINE_BOX;
  const geometry = timelineGeometry(scan.requests, scan.compactions, scan.window, scan.todos);
  const right = box.width - box.right;
  const axis = [0, geometry.maxTokens / 2, geometry.maxTokens]
    .map((tokens) => {
      const y = round(box.top + (box.height - box.top - box.bottom) * (1 - tokens / geometry.maxTokens));
      return `<line class="grid" x1="${box.left}" y1="${y}" x2="${right}" y2="${y}"/><text class="tick" x="${box.left - 6}" y="${y}" dy="4" text-anchor="end">${formatShort(tokens)}</text>`;
    })
    .join("");
  const line =
    geometry.points.length === 0
      ? ""
      : `<polyline class="size" points="${geometry.points.map((point) => `${round(point.x)},${round(point.y)}`).join(" ")}"/>`;
  const estimated = geometry.points
    .filter((point) => point.estimated)
    .map((point) => `<circle class="estimated" cx="${round(point.x)}" cy="${round(point.y)}" r="2.5"/>`)
    .join("");
  const window =
    geometry.windowY === undefined || scan.window === undefined
      ? ""
      : `<line class="window" x1="${box.left}" y1="${round(geometry.windowY)}" x2="${right}" y2="${round(geometry.windowY)}"/><text class="tick window-label" x="${right}" y="${round(geometry.windowY)}" dy="-4" text-anchor="end">context window ${formatCount(scan.window)}</text>`;
  const title = `Context size of ${formatCount(scan.requests.length)} model requests, with ${formatCount(scan.compactions.length)} compactions`;
  return `<svg class="timeline" viewBox="0 0 ${box.width} ${box.height}" role="group" aria-label="${escapeHtml(title)}"><title>${escapeHtml(title)}</title>${axis}${window}${line}${estimated}${geometry.markers.map(renderMarker).join("")}${geometry.todoMarkers.map(({ mark, x }) => renderTodoMarker(mark, x, geometry.baseY)).join("")}<text class="tick" x="${box.left}" y="${box.height - 8}">request 1</text><text class="tick" x="${right}" y="${box.height - 8}" text-anchor="end">request ${formatCount(scan.requests.length)}</text></svg>`;
}

function renderTotals(totals: Totals, estimatedRequests: number): string {
  const rows: Array<[string, string]> = [
    [
      "Model requests",
      `${formatCount(totals.requests)}${estimatedRequests > 0 ? ` (${formatCount(estimatedRequests)} without usage: size estimated, hollow dots)` : ""}`,
    ],
    ["Input tokens", formatCount(totals.inputTokens)],
    ["Output tokens", formatCount(totals.outputTokens)],
    [
      "Cache read / write",
      `${formatCount(totals.cacheReadTokens)} / ${formatCount(totals.cacheWriteTokens)}`,
    ],
    ["Compaction calls", `${formatCount(totals.compactionCalls)} (not in the figures above)`],
  ];
  return `<dl class="totals">${rows.map(([name, value]) => `<div><dt>${name}</dt><dd>${value}</dd></div>`).join("")}</dl>`;
}

function renderMarkList(marks: readonly CompactionMark[]): string {
  if (marks.length === 0) return `<p class="note">No compaction in this session.</p>`;
  const items = marks.map(
    (mark) =>
      `<li class="${mark.status}"><a href="#L${mark.line}">${escapeHtml(describeMark(mark))}</a></li>`,
  );
  return `<ol class="marks">${items.join("")}</ol>`;
}

/** The task list's changes in file order, each linking to the list as it stood; nothing without any. */
function renderTodoMarks(marks: readonly TodoMark[]): string {
  if (marks.length === 0) return "";
  const items = marks.map(
    (mark) =>
      `<li${mark.flagged === 0 ? "" : ` class="flagged"`}><a href="#todo-${mark.ordinal}">${escapeHtml(describeTodoMark(mark))}</a></li>`,
  );
  return `<h3>Task list</h3><ol class="todo-marks">${items.join("")}</ol>`;
}

/** The section at the top of the page: chart, legend, totals, the compactions and the task list's changes. */
export function renderTimelineSection(scan: SessionScan): string {
  const estimated = scan.requests.filter((point) => point.estimated).length;
  const legend = `<p class="legend"><span class="key size">context size per request</span> <span class="key overflow">overflow</span> <span class="key manual">manual</span> <span class="key edited">edited</span>${scan.compactions.some((mark) => mark.trigger === "cold-cache") ? ` <span class="key cold-cache">prompt cache expired</span>` : ""} <span class="key failed">failed</span> <span class="key undone">undone</span>${scan.todos.length === 0 ? "" : ` <span class="key todo">task list changed</span>`}${scan.window === undefined ? "" : ` <span class="key window">learned window</span>`}</p>`;
  return `<section id="timeline" aria-labelledby="timeline-title"><h2 id="timeline-title">Timeline</h2>${renderTimelineSvg(scan)}${legend}${renderTotals(scan.totals, estimated)}${renderMarkList(scan.compactions)}${renderTodoMarks(scan.todos)}</section>`;
}
