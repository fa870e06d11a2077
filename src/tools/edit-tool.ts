import type { SandboxLayout } from "../sandbox/index.js";
import { countLines } from "./count-lines.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { fileAccessFailure, toolFailure } from "./describe-error.js";
import type { FileAccess } from "./file-access.js";
import { fileChange } from "./file-change.js";
import { numberLine } from "./number-lines.js";
import { openToolFile, replaceContent } from "./regular-file.js";
import type { Tool } from "./tool.js";
import { ToolError } from "./tool-error.js";
import { textOutput } from "./tool-output.js";
import { accessTarget, frontEndFiles } from "./tool-paths.js";

/** Lines of unchanged text shown around an edit. */
const CONTEXT_LINES = 3;
/** Most lines of an edited region echoed back. */
const MAX_SNIPPET_LINES = 30;

export const editSchema = (z: Zod) =>
  z.strictObject({
    path: z.string().min(1).describe("File to edit, relative to the working directory or absolute."),
    old_string: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
    new_string: z.string().describe("Text to put in its place."),
    replace_all: z
      .boolean()
      .optional()
      .describe("Replace every occurrence (default false: old_string must occur exactly once)."),
  });

/** Replaces an exact string in a file: once (it must be unique) or everywhere. */
export function createEditTool(): Tool {
  return defineBuiltInTool({
    name: "edit",
    kind: "write",
    description:
      "Edit a file by exact string replacement. old_string must match the file exactly (whitespace included) " +
      "and occur once, unless replace_all is true. Read the file first.",
    schema: editSchema,
    async run(args, context) {
      const { absolute, shown, layout } = accessTarget(context, args.path, "write");
      assertChanges(args);
      const files = frontEndFiles(context);
      const { original, edit } =
        files === undefined
          ? await editLocal(absolute, shown, args, layout)
          : await editThroughFileAccess(files, absolute, shown, args, context.signal);
      context.onFileChange?.(fileChange(absolute, original, edit.updated));
      const noun = edit.count === 1 ? "occurrence" : "occurrences";
      const snippet = snippetAround(edit.updated, edit.position, edit.inserted);
      return textOutput(`Replaced ${edit.count} ${noun} in ${shown}:\n${snippet}`);
    },
  });
}

/** The arguments of one edit call. */
export interface EditArguments {
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

/** What an edit does to a file's text: the new text, and where the (first) replacement landed. */
export interface AppliedEdit {
  updated: string;
  count: number;
  /** Offset of the first replacement in the original (and updated) text. */
  position: number;
  /** The text put in, as written (CRLF when the file uses it). */
  inserted: string;
}

/**
 * Applies one edit to `original` the way the edit tool does (so a front-end can show the change it
 * will make): the exact text once, or everywhere with replace_all, tolerating \n for \r\n. Throws
 * a ToolError saying why when the edit cannot apply.
 */
export function applyEdit(original: string, args: EditArguments, shown: string): AppliedEdit {
  assertChanges(args);
  const edit = planEdit(original, args.old_string, args.new_string, shown);
  const count = edit.positions.length;
  if (count > 1 && args.replace_all !== true) {
    throw new ToolError(
      `old_string occurs ${count} times in ${shown}; include more surrounding text to make it unique, ` +
        "or set replace_all to true",
    );
  }
  return {
    updated: original.split(edit.oldString).join(edit.newString),
    count,
    position: edit.positions[0] ?? 0,
    inserted: edit.newString,
  };
}

function assertChanges(args: EditArguments): void {
  if (args.old_string === args.new_string)
    throw new ToolError("old_string and new_string are identical; nothing to change");
}

/**
 * Reads and rewrites the file through one descriptor (in a sandbox, the verified one: see
 * openHeldFile), so the text edited is the text of the file written, in place (mode kept).
 */
async function editLocal(
  absolute: string,
  shown: string,
  args: EditArguments,
  layout: SandboxLayout | undefined,
): Promise<{ original: string; edit: AppliedEdit }> {
  const { handle } = await openToolFile(absolute, shown, "edit", "update", layout).catch((error: unknown) => {
    throw toolFailure("edit", error, shown);
  });
  try {
    const original = await handle.readFile("utf8").catch((error: unknown) => {
      throw toolFailure("edit", error, shown);
    });
    const edit = applyEdit(original, args, shown);
    await replaceContent(handle, edit.updated).catch((error: unknown) => {
      throw toolFailure("edit", error, shown);
    });
    return { original, edit };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The front-end's text, edited and written back (an editor's buffer), outside a sandbox only (see frontEndFiles). */
async function editThroughFileAccess(
  files: FileAccess,
  absolute: string,
  shown: string,
  args: EditArguments,
  signal: AbortSignal | undefined,
): Promise<{ original: string; edit: AppliedEdit }> {
  const original = await files.readText(absolute, signal).catch((error: unknown) => {
    throw fileAccessFailure("edit", error, shown);
  });
  const edit = applyEdit(original, args, shown);
  await files.writeText(absolute, edit.updated, signal).catch((error: unknown) => {
    throw fileAccessFailure("edit", error, shown);
  });
  return { original, edit };
}

interface EditPlan {
  oldString: string;
  newString: string;
  /** Offsets of each non-overlapping match in the original text. */
  positions: number[];
}

/** Finds the matches; tolerates a model writing \n where the file uses \r\n, and explains a miss. */
function planEdit(original: string, oldString: string, newString: string, shown: string): EditPlan {
  const exact = findAll(original, oldString);
  if (exact.length > 0) return { oldString, newString, positions: exact };
  if (original.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r")) {
    const crlf = (text: string) => text.replace(/\n/g, "\r\n");
    const positions = findAll(original, crlf(oldString));
    if (positions.length > 0) return { oldString: crlf(oldString), newString: crlf(newString), positions };
  }
  const hint = matchesIgnoringWhitespace(original, oldString)
    ? "; a match exists if whitespace is ignored, so check indentation, tabs versus spaces and line breaks"
    : "; read the file again and copy the text exactly";
  throw new ToolError(`old_string not found in ${shown}${hint}`);
}

function findAll(text: string, search: string): number[] {
  const positions: number[] = [];
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
    positions.push(at);
  }
  return positions;
}

function matchesIgnoringWhitespace(text: string, search: string): boolean {
  const squash = (value: string) => value.replace(/\s+/g, " ").trim();
  const needle = squash(search);
  return needle !== "" && squash(text).includes(needle);
}

/** The replaced region of the first match with a few lines either side, numbered like read. */
function snippetAround(updated: string, position: number, inserted: string): string {
  const lines = updated.split("\n");
  const firstLine = updated.slice(0, position).split("\n").length;
  const lastLine = firstLine + Math.max(countLines(inserted), 1) - 1;
  const from = Math.max(1, firstLine - CONTEXT_LINES);
  const to = Math.min(lines.length, lastLine + CONTEXT_LINES, from + MAX_SNIPPET_LINES - 1);
  const shown: string[] = [];
  for (let line = from; line <= to; line += 1)
    shown.push(numberLine(line, (lines[line - 1] ?? "").replace(/\r$/, "")));
  return shown.join("\n");
}
