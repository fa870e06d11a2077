import { stat } from "node:fs/promises";
import type { SandboxLayout } from "../sandbox/index.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { toolFailure } from "./describe-error.js";
import { findFiles } from "./find-files.js";
import { createLineMatcher, matchLines } from "./line-matcher.js";
import { BINARY_SNIFF_BYTES, looksBinary } from "./looks-binary.js";
import { openToolFile, refuseSpecialFile } from "./regular-file.js";
import { type FoundFile, readableFiles } from "./sandbox-visible.js";
import type { Tool } from "./tool.js";
import { ToolError } from "./tool-error.js";
import { textOutput } from "./tool-output.js";
import { accessTarget, foundPath } from "./tool-paths.js";
import { withoutDenied } from "./without-denied.js";

export const DEFAULT_GREP_RESULTS = 200;
export const MAX_GREP_RESULTS = 5000;
/** Files larger than this are skipped: generated bundles and data dumps, rarely what is sought. */
export const MAX_GREP_FILE_BYTES = 2 * 1024 * 1024;
/** Files read concurrently: reading one at a time leaves the disk and thread pool idle. */
const READ_BATCH = 32;

export const grepSchema = (z: Zod) =>
  z.strictObject({
    pattern: z.string().min(1).describe("JavaScript regular expression to search for, matched line by line."),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("File or directory to search (default: the working directory)."),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe('Only search files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.js".'),
    ignore_case: z.boolean().optional().describe("Match case-insensitively (default false)."),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(MAX_GREP_RESULTS)
      .optional()
      .describe(`Most matching lines returned (default ${DEFAULT_GREP_RESULTS}).`),
  });

/** Searches file contents with a regular expression, in pure Node (no ripgrep needed). */
export function createGrepTool(): Tool {
  return defineBuiltInTool({
    name: "grep",
    kind: "read",
    description:
      "Search file contents with a JavaScript regular expression. Prints path:line: text for each matching " +
      "line. Skips node_modules, .git, binary files and files over 2 MB.",
    schema: grepSchema,
    async run(args, context) {
      const matcher = createLineMatcher(args.pattern, args.ignore_case === true);
      const {
        absolute: target,
        shown: targetShown,
        layout,
      } = accessTarget(context, args.path ?? ".", "read");
      const found = await filesToSearch(target, targetShown, args.glob, layout);
      const { kept: files, note } = withoutDenied(readableFiles(found, layout), context);
      const limit = args.max_results ?? DEFAULT_GREP_RESULTS;
      const matches: string[] = [];
      for (let index = 0; index < files.length; index += READ_BATCH) {
        if (context.signal?.aborted) throw new ToolError("grep: aborted");
        const batch = files.slice(index, index + READ_BATCH);
        const texts = await Promise.all(batch.map((file) => readSearchableText(file, layout)));
        batch.forEach(({ file }, position) => {
          const text = texts[position];
          if (text === undefined || matches.length >= limit) return;
          const shown = foundPath(context.cwd, file, layout);
          for (const match of matchLines(text, matcher, limit - matches.length))
            matches.push(`${shown}:${match}`);
        });
        if (matches.length >= limit) {
          return textOutput(
            `${matches.join("\n")}\n\n... stopped at ${limit} matches; narrow the search or raise max_results${note}`,
          );
        }
      }
      return textOutput(
        `${matches.length === 0 ? `No matches for ${args.pattern}` : matches.join("\n")}${note}`,
      );
    },
  });
}

/** A single file, or the files under a directory (optionally filtered by a glob), sorted by path. */
async function filesToSearch(
  target: string,
  shown: string,
  fileGlob: string | undefined,
  layout: SandboxLayout | undefined,
): Promise<string[]> {
  const info = await stat(target).catch((error: unknown) => {
    throw toolFailure("search", error, shown);
  });
  if (!info.isDirectory()) {
    refuseSpecialFile(info, shown, "grep");
    return [target];
  }
  // Like ripgrep, a glob without a slash matches file names at any depth.
  const pattern = fileGlob === undefined ? "**/*" : fileGlob.includes("/") ? fileGlob : `**/${fileGlob}`;
  return (await findFiles(pattern, target, layout)).sort();
}

/**
 * A file's text, or undefined for files grep skips: unreadable, not a regular file (a pipe or
 * device would block or never end), over the size limit, or binary.
 */
async function readSearchableText(
  found: FoundFile,
  layout: SandboxLayout | undefined,
): Promise<string | undefined> {
  const opened = await openToolFile(found.open, found.file, "grep", "read", layout).catch(() => undefined);
  if (opened === undefined) return undefined;
  const { handle } = opened;
  try {
    const { size } = await handle.stat();
    if (size > MAX_GREP_FILE_BYTES) return undefined;
    const buffer = await handle.readFile();
    return looksBinary(buffer.subarray(0, BINARY_SNIFF_BYTES)) ? undefined : buffer.toString("utf8");
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
