import type { Stats } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { makeFolder } from "../core/index.js";
import { countLines } from "./count-lines.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { fileAccessFailure, toolFailure } from "./describe-error.js";
import { fileChange } from "./file-change.js";
import { refuseSpecialFile, writeRegularFile } from "./regular-file.js";
import type { Tool, ToolContext } from "./tool.js";
import { textOutput } from "./tool-output.js";
import { accessTarget } from "./tool-paths.js";

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
      const { absolute, shown } = accessTarget(context, args.path, "write");
      const existing = await stat(absolute).catch(() => undefined);
      if (existing !== undefined) refuseSpecialFile(existing, shown, "write");
      const before =
        context.onFileChange === undefined ? undefined : await textBefore(absolute, existing, context);
      try {
        await makeFolder(path.dirname(absolute));
        if (context.files === undefined) await writeRegularFile(absolute, shown, "write", args.content);
      } catch (error) {
        throw toolFailure("write", error, shown);
      }
      await context.files?.writeText(absolute, args.content, context.signal).catch((error: unknown) => {
        throw fileAccessFailure("write", error, shown);
      });
      context.onFileChange?.(fileChange(absolute, before, args.content));
      const bytes = Buffer.byteLength(args.content, "utf8");
      const verb = existing !== undefined ? "Overwrote" : "Created";
      const lines = countLines(args.content);
      return textOutput(`${verb} ${shown}: ${bytes} bytes, ${lines} ${lines === 1 ? "line" : "lines"}`);
    },
  });
}

/** The text a write replaces, for the change it reports (undefined for a new or unreadable file). */
async function textBefore(
  absolute: string,
  existing: Stats | undefined,
  context: ToolContext,
): Promise<string | undefined> {
  if (context.files !== undefined)
    return context.files.readText(absolute, context.signal).catch(() => undefined);
  if (existing === undefined || !existing.isFile()) return undefined;
  return readFile(absolute, "utf8").catch(() => undefined);
}
