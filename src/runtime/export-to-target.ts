import { randomBytes } from "node:crypto";
import { type FileHandle, open, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, extname, resolve } from "node:path";
import { describeFileError, PathProblem, pathKind } from "../core/index.js";

type Format = "html" | "md" | "json";

/** What one export should do, once the session file is known. */
export interface ExportRequest {
  sessionPath: string;
  /**
   * Output file (relative to `cwd`), "-" for stdout, undefined for `<session name>.<format>` beside
   * the session file: not in the project, where the model would come across it.
   */
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
  const target =
    request.output === undefined
      ? resolve(dirname(request.sessionPath), `${basename(request.sessionPath, ".jsonl")}.${format}`)
      : resolve(request.cwd, request.output);
  await checkTarget(target);
  const temporary = `${target}.${randomBytes(4).toString("hex")}.tmp`;
  let file: FileHandle;
  try {
    file = await open(temporary, "wx", 0o600);
  } catch (error) {
    throw new PathProblem(target, `cannot write the export to ${describeFileError(target, error)}`, {
      cause: error,
    });
  }
  try {
    const summary = await exportSession(options, streamSink(file.createWriteStream(), true));
    await rename(temporary, target);
    return { target, ...summary };
  } finally {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
  }
}

/** The target's folder must exist (a mistyped folder is not created) and the target be a regular file if present. */
async function checkTarget(target: string): Promise<void> {
  const folder = dirname(target);
  const folderInfo = await stat(folder).catch((error: unknown) => error as NodeJS.ErrnoException);
  if (folderInfo instanceof Error) {
    const why =
      folderInfo.code === "ENOENT" || folderInfo.code === "ENOTDIR"
        ? `the folder ${folder} does not exist`
        : describeFileError(folder, folderInfo);
    throw new PathProblem(target, `cannot write the export to ${target}: ${why}`);
  }
  if (!folderInfo.isDirectory())
    throw new PathProblem(target, `cannot write the export to ${target}: ${folder} is a file, not a folder`);
  const info = await stat(target).catch(() => undefined);
  const kind = info === undefined ? undefined : pathKind(info);
  if (kind !== undefined)
    throw new PathProblem(target, `cannot write the export to ${target}: it is ${kind}, not a regular file`);
}
