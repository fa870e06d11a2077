import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { SandboxLayout } from "../sandbox/sandbox-layout.js";
import { defineBuiltInTool } from "./define-built-in-tool.js";
import type { Zod } from "./define-tool.js";
import { toolFailure } from "./describe-error.js";
import type { Tool } from "./tool.js";
import { ToolError } from "./tool-error.js";
import { textOutput } from "./tool-output.js";
import { accessTarget } from "./tool-paths.js";

/** Entries listed at most. */
export const MAX_LS_ENTRIES = 1000;

export const lsSchema = (z: Zod) =>
  z.strictObject({
    path: z.string().min(1).optional().describe("Directory to list (default: the working directory)."),
  });

/** Lists one directory: sorted names, directories marked with a trailing slash, dotfiles included. */
export function createLsTool(): Tool {
  return defineBuiltInTool({
    name: "ls",
    kind: "read",
    description: `List a directory's entries, sorted, directories ending in "/" (at most ${MAX_LS_ENTRIES}).`,
    schema: lsSchema,
    async run(args, context) {
      const { absolute, shown, layout } = accessTarget(context, args.path ?? ".", "read");
      const names = await listFolder(absolute, shown, layout).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === "ENOTDIR") {
          throw new ToolError(`${shown} is not a directory`);
        }
        throw toolFailure("list", error, shown);
      });
      if (names.length === 0) return textOutput(`(${shown} is empty)`);
      names.sort();
      const listed = names.slice(0, MAX_LS_ENTRIES).join("\n");
      const more = names.length - MAX_LS_ENTRIES;
      return textOutput(more > 0 ? `${listed}\n\n... ${more} more entries not listed` : listed);
    },
  });
}

/**
 * The folder's entry names, read in a sandbox through its verified descriptor (withHeldFolder), so
 * a folder swapped for a symlink after the check is not listed; symlinks are looked up in it too.
 */
async function listFolder(
  absolute: string,
  shown: string,
  layout: SandboxLayout | undefined,
): Promise<string[]> {
  const list = async (inside: string): Promise<string[]> => {
    const entries = await readdir(inside, { withFileTypes: true });
    return Promise.all(entries.map((entry) => entryName(inside, entry)));
  };
  if (layout === undefined) return list(absolute);
  const { withHeldFolder } = await import("../sandbox/held-file.js");
  return withHeldFolder(layout, absolute, shown, list);
}

/** The name, with "/" for a directory or a symbolic link that points at one. */
async function entryName(directory: string, entry: Dirent): Promise<string> {
  if (entry.isDirectory()) return `${entry.name}/`;
  if (!entry.isSymbolicLink()) return entry.name;
  const target = await stat(path.join(directory, entry.name)).catch(() => undefined);
  return target?.isDirectory() ? `${entry.name}/` : entry.name;
}
