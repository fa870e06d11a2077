import type { Redact } from "./clean-text.js";
import type { EffectiveIds } from "./effective-entries.js";
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
 * `--format json`: JSON Lines. First `{"line":1,"header":{...}}`, then one
 * `{"line":N,"effective":true|false,"entry":{...}}` per entry (unreadable lines as
 * `{"line":N,"invalid":"reason"}`). `effective` is true for what the next request would carry.
 */
export async function writeJson(
  path: string,
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
      record = { line: item.line, effective: isEffective, entry: redactValue(entry, redact) };
    }
    await sink.write(`${JSON.stringify(record)}\n`);
  }
}
