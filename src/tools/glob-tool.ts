import { stat } from "node:fs/promises";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { toolFailure } from "./describe-error.js";
import { findFiles } from "./find-files.js";
import { visibleFiles } from "./sandbox-visible.js";
import type { Tool } from "./tool.js";
import { ToolError } from "./tool-error.js";
import { textOutput } from "./tool-output.js";
import { accessTarget, foundPath } from "./tool-paths.js";
import { withoutDenied } from "./without-denied.js";

/** Paths listed at most. */
export const MAX_GLOB_RESULTS = 1000;

export const globSchema = (z: Zod) =>
  z.strictObject({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/test-*.js".'),
    path: z.string().min(1).optional().describe("Directory to search from (default: the working directory)."),
  });

/** Finds files by glob pattern, most recently modified first. */
export function createGlobTool(): Tool {
  return defineBuiltInTool({
    name: "glob",
    kind: "read",
    description:
      "Find files by glob pattern (node_modules and .git skipped). Paths come back most recently modified " +
      `first, at most ${MAX_GLOB_RESULTS}.`,
    schema: globSchema,
    async run(args, context) {
      const { absolute: base, shown, layout } = accessTarget(context, args.path ?? ".", "read");
      await assertDirectory(base, shown);
      const visible = visibleFiles(await findFiles(args.pattern, base, layout), layout, "names");
      const allowed = withoutDenied(
        visible.map((file) => ({ file })),
        context,
        "listed",
      );
      const files = await sortNewestFirst(allowed.kept.map((found) => found.file));
      if (files.length === 0) return textOutput(`No files match ${args.pattern}${allowed.note}`);
      const listed = files.slice(0, MAX_GLOB_RESULTS).map((file) => foundPath(context.cwd, file, layout));
      const more = files.length - MAX_GLOB_RESULTS;
      const note = more > 0 ? `\n\n... ${more} more files not listed; use a narrower pattern` : "";
      return textOutput(listed.join("\n") + note + allowed.note);
    },
  });
}

async function assertDirectory(absolute: string, shown: string): Promise<void> {
  const info = await stat(absolute).catch((error: unknown) => {
    throw toolFailure("search", error, shown);
  });
  if (!info.isDirectory()) throw new ToolError(`${shown} is not a directory`);
}

/** Newest first, ties broken by path so the order is stable. */
async function sortNewestFirst(files: string[]): Promise<string[]> {
  const withTimes = await Promise.all(
    files.map(async (file) => ({ file, mtime: (await stat(file).catch(() => undefined))?.mtimeMs ?? 0 })),
  );
  withTimes.sort((a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return withTimes.map((entry) => entry.file);
}
