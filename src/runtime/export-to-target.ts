import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";

type Format = "html" | "md" | "json";

/** What one export should do, once the session file is known. */
export interface ExportRequest {
  sessionPath: string;
  /** Output file, "-" for stdout, undefined for `<session name>.<format>` in `cwd`. */
  output?: string;
  format?: Format;
  full: boolean;
  cwd: string;
  /** Replaces known credentials in every string the export writes. */
  redact: (text: string) => string;
}

function formatOf(request: ExportRequest): Format {
  if (request.format !== undefined) return request.format;
  const extension = request.output === undefined ? "" : extname(request.output).toLowerCase();
  if (extension === ".md" || extension === ".markdown") return "md";
  if (extension === ".json" || extension === ".jsonl") return "json";
  return "html";
}

/**
 * Writes the export (the exporter is loaded only now). A file is written beside its target and
 * renamed into place, so a failed export never leaves half a page. Output "-" writes to `stdout`.
 * Returns where it went.
 */
export async function exportToTarget(
  request: ExportRequest,
  stdout?: NodeJS.WritableStream,
): Promise<{ target: string; entries: number; compactions: number; invalidLines: number[] }> {
  const { exportSession, streamSink } = await import("../export/index.js");
  const format = formatOf(request);
  const options = { path: request.sessionPath, format, full: request.full, redact: request.redact };
  if (request.output === "-") {
    if (stdout === undefined) throw new Error("no standard output to export to");
    const summary = await exportSession(options, streamSink(stdout, false));
    return { target: "stdout", ...summary };
  }
  const target = resolve(
    request.cwd,
    request.output ?? `${basename(request.sessionPath, ".jsonl")}.${format}`,
  );
  const temporary = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const summary = await exportSession(
      options,
      streamSink(createWriteStream(temporary, { mode: 0o600 }), true),
    );
    await rename(temporary, target);
    return { target, ...summary };
  } finally {
    await rm(temporary, { force: true });
  }
}
