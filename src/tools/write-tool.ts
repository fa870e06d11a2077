import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import type { SandboxLayout } from "../sandbox/index.js";
import { countLines } from "./count-lines.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { fileAccessFailure, toolFailure } from "./describe-error.js";
import type { FileAccess } from "./file-access.js";
import { fileChange } from "./file-change.js";
import { openToolFile, refuseSpecialFile, replaceContent } from "./regular-file.js";
import type { Tool, ToolContext } from "./tool.js";
import { textOutput } from "./tool-output.js";
import { accessTarget, frontEndFiles } from "./tool-paths.js";

export const writeSchema = (z: Zod) =>
  z.strictObject({
    path: z.string().min(1).describe("File to write, relative to the working directory or absolute."),
    content: z.string().describe("The complete new content of the file."),
  });

/** Creates or overwrites a file, creating missing parent directories. */
export function createWriteTool(): Tool {
  return defineBuiltInTool({
    name: "write",
    kind: "write",
    description:
      "Write a file with the given content, replacing it if it exists and creating parent directories as needed. " +
      "Prefer edit for changing part of an existing file.",
    schema: writeSchema,
    async run(args, context) {
      const { absolute, shown, layout } = accessTarget(context, args.path, "write");
      // Refused before anything is opened; the open checks again what it opened.
      const existing = await stat(absolute).catch(() => undefined);
      if (existing !== undefined) refuseSpecialFile(existing, shown, "write");
      const files = frontEndFiles(context);
      const written =
        files === undefined
          ? await writeLocal(absolute, shown, args.content, layout, context)
          : await writeThroughFileAccess(
              files,
              absolute,
              shown,
              args.content,
              existing !== undefined,
              context,
            );
      const bytes = Buffer.byteLength(args.content, "utf8");
      const lines = countLines(args.content);
      const verb = written.created ? "Created" : "Overwrote";
      return textOutput(`${verb} ${shown}: ${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"}`);
    },
  });
}

/**
 * Writes through the file's own descriptor (in a sandbox, the verified one: see openHeldFile); the
 * text it replaces, for the change reported, is read through the same descriptor.
 */
async function writeLocal(
  absolute: string,
  shown: string,
  content: string,
  layout: SandboxLayout | undefined,
  context: ToolContext,
): Promise<{ created: boolean }> {
  let before: string | undefined;
  let created: boolean;
  try {
    const file = await openToolFile(absolute, shown, "write", "write", layout);
    created = file.created;
    try {
      if (context.onFileChange !== undefined && file.readable && !file.created)
        before = await file.handle.readFile("utf8").catch(() => undefined);
      await replaceContent(file.handle, content);
    } finally {
      await file.handle.close();
    }
  } catch (error) {
    throw toolFailure("write", error, shown);
  }
  context.onFileChange?.(fileChange(absolute, before, content));
  return { created };
}

/** The front-end's write (an editor's buffer), outside a sandbox only (see frontEndFiles). */
async function writeThroughFileAccess(
  files: FileAccess,
  absolute: string,
  shown: string,
  content: string,
  exists: boolean,
  context: ToolContext,
): Promise<{ created: boolean }> {
  const before =
    context.onFileChange === undefined
      ? undefined
      : await files.readText(absolute, context.signal).catch(() => undefined);
  await mkdir(path.dirname(absolute), { recursive: true }).catch((error: unknown) => {
    throw toolFailure("write", error, shown);
  });
  await files.writeText(absolute, content, context.signal).catch((error: unknown) => {
    throw fileAccessFailure("write", error, shown);
  });
  context.onFileChange?.(fileChange(absolute, before, content));
  return { created: !exists };
}
