import { readFile } from "node:fs/promises";
import type { ToolCallBlock } from "../core/index.js";
import { applyEdit } from "./edit-tool.js";
import type { FileAccess } from "./file-access.js";
import { type FileChange, fileChange } from "./file-change.js";
import { toolTarget } from "./tool-paths.js";

/**
 * The change a `write` or `edit` call would make if it ran now, read the way the tool reads (through
 * `files` when the front-end supplies them), so a front-end can show the real diff before asking
 * and after the call. Undefined for other tools, and for a call the tool would refuse (the tool's
 * result then says why).
 */
export async function previewFileChange(
  call: ToolCallBlock,
  cwd: string,
  files?: FileAccess,
): Promise<FileChange | undefined> {
  const args = call.arguments;
  if (typeof args.path !== "string" || args.path === "") return undefined;
  const { absolute, shown } = toolTarget(cwd, args.path);
  const read = (): Promise<string> =>
    files === undefined ? readFile(absolute, "utf8") : files.readText(absolute);
  if (call.name === "write" && typeof args.content === "string") {
    const oldText = await read().catch(() => undefined);
    return fileChange(absolute, oldText, args.content);
  }
  if (call.name !== "edit" || typeof args.old_string !== "string" || typeof args.new_string !== "string")
    return undefined;
  try {
    const oldText = await read();
    const edit = {
      old_string: args.old_string,
      new_string: args.new_string,
      replace_all: args.replace_all === true,
    };
    return fileChange(absolute, oldText, applyEdit(oldText, edit, shown).updated);
  } catch {
    return undefined;
  }
}
