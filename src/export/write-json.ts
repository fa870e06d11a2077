import type { Redact } from "./clean-text.js";
import type { EffectiveIds } from "./effective-entries.js";
import type { SessionScan } from "./scan-session.js";
import { readSessionLines } from "./session-lines.js";
import type { TextSink } from "./text-sink.js";

/** Applies the redactor to every string inside a JSON value. */
function redactValue(value: unknown, redact: Redact): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, redact)]));
  return value;
}

/**
 * For an entry the next request carries: the results in it that a clearing in force holds as
 * one-line stubs, each call id with the id of that clearing; undefined when there are none.
 */
function clearedResults(
  entry: unknown,
  line: number,
  scan: SessionScan,
  redact: Redact,
): Record<string, string> | undefined {
  const { type, message, keptBy } = entry as { type?: unknown; message?: unknown; keptBy?: unknown };
  if (type !== "message" || (message as { role?: unknown } | undefined)?.role !== "tool") return undefined;
  const content = (message as { content?: unknown }).content;
  const cleared: Record<string, string> = {};
  for (const block of Array.isArray(content) ? content : []) {
    const callId = (block as { toolCallId?: unknown } | undefined)?.toolCallId;
    if (typeof callId !== "string") continue;
    const mark = scan.clearingOf(line, callId, typeof keptBy === "string" ? keptBy : undefined);
    if (mark !== undefined) cleared[redact(callId)] = redact(mark.id);
  }
  return Object.keys(cleared).length === 0 ? undefined : cleared;
}

/**
 * `--format json`: JSON Lines. First `{"line":1,"header":{...}}`, then one
 * `{"line":N,"effective":true|false,"entry":{...}}` per entry (unreadable lines as
 * `{"line":N,"invalid":"reason"}`). `effective` is true for what the next request would carry.
 * Tool-result clearing (the entries stay as the file has them, outputs whole):
 * - an effective tool message whose results the next request carries as one-line stubs has
 *   `"cleared":{"<call id>":"<clearing id>"}`, naming the clearing in force for each such result;
 * - a `clearing` entry has `"in_force":true|false` (false once an `unclear` entry, a rewind or a
 *   compaction took it back); its `effective` stays false, as no entry of its own is sent.
 */
export async function writeJson(
  path: string,
  scan: SessionScan,
  effective: EffectiveIds,
  redact: Redact,
  sink: TextSink,
): Promise<void> {
  for await (const item of readSessionLines(path)) {
    let record: unknown;
    if ("header" in item) record = { line: 1, header: redactValue(item.header, redact) };
    else if (item.kind === "invalid") record = { line: item.line, invalid: item.reason };
    else {
      const entry = item.kind === "entry" ? item.entry : item.fields;
      const id = (entry as { id?: unknown }).id;
      const isEffective =
        typeof id === "string" && (effective.messageIds.has(id) || effective.compactionId === id);
      const cleared = isEffective ? clearedResults(entry, item.line, scan, redact) : undefined;
      const inForce =
        entry.type === "clearing"
          ? { in_force: scan.clearings.find((mark) => mark.line === item.line)?.status === "in force" }
          : {};
      record = {
        line: item.line,
        effective: isEffective,
        ...(cleared === undefined ? {} : { cleared }),
        ...inForce,
        entry: redactValue(entry, redact),
      };
    }
    await sink.write(`${JSON.stringify(record)}\n`);
  }
}
