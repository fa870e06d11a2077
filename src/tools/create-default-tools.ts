import { createBashTool } from "./bash-tool.js";
import { createEditTool } from "./edit-tool.js";
import { createGlobTool } from "./glob-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadTool } from "./read-tool.js";
import type { Tool } from "./tool.js";
import { createWriteTool } from "./write-tool.js";

/** The coding tools offered by default: read, write, edit, bash, ls, glob, grep. */
export function createDefaultTools(): Tool[] {
  return [
    createReadTool(),
    createWriteTool(),
    createEditTool(),
    createBashTool(),
    createLsTool(),
    createGlobTool(),
    createGrepTool(),
  ];
}
