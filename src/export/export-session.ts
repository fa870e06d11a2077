import { optional } from "../core/index.js";
import type { Redact } from "./clean-text.js";
import { findEffectiveIds } from "./effective-entries.js";
import { createMarkdownRenderer } from "./render-markdown.js";
import { scanSession } from "./scan-session.js";
import type { TextSink } from "./text-sink.js";
import { writeHtml } from "./write-html.js";
import { writeJson } from "./write-json.js";
import { writeMarkdown } from "./write-markdown.js";

export type ExportFormat = "html" | "md" | "json";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["html", "md", "json"];

export interface ExportSessionOptions {
  /** The session file. */
  path: string;
  format: ExportFormat;
  /** Keep long tool results and texts whole instead of cutting them. */
  full?: boolean;
  /** Applied to every string from the session before it is written (secrets out). */
  redact?: Redact;
}

/** What an export found, for the caller's report. */
export interface ExportSummary {
  entries: number;
  requests: number;
  compactions: number;
  /** Lines that were not readable entries; they are shown as such in the export. */
  invalidLines: number[];
}

/**
 * Exports a session file to `sink`, streaming: a first pass collects request sizes and
 * compactions (small numbers only), the session package finds the effective context, and a second
 * pass writes every entry in file order. Memory does not grow with the file.
 */
export async function exportSession(options: ExportSessionOptions, sink: TextSink): Promise<ExportSummary> {
  const redact = options.redact ?? ((text: string) => text);
  const full = options.full === true;
  const scan = await scanSession(options.path);
  const effective = await findEffectiveIds(options.path);
  if (options.format === "json") await writeJson(options.path, scan, effective, redact, sink);
  else if (options.format === "md")
    await writeMarkdown(options.path, scan, effective, { redact, full }, sink);
  else {
    const marks = new Map(scan.compactions.map((mark) => [mark.id, mark]));
    const markdown = await createMarkdownRenderer();
    const context = {
      redact,
      full,
      markdown,
      marks,
      pinLines: scan.pinLines,
      cleared: scan.cleared,
      clearings: scan.clearings,
      ...optional("effectiveCompactionId", effective.compactionId),
    };
    await writeHtml(options.path, scan, effective, context, sink);
  }
  await sink.close();
  return {
    entries: scan.entries,
    requests: scan.requests.length,
    compactions: scan.compactions.length,
    invalidLines: scan.invalidLines,
  };
}
