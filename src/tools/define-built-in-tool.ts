import type { z } from "zod";
import { defineTool, type ToolSpec } from "./define-tool.js";
import type { Tool } from "./tool.js";
import { TOOL_PARAMETERS } from "./tool-parameters.js";

/** A built-in tool: its JSON Schema is the one generated for its name (tool-parameters.ts). */
export function defineBuiltInTool<Schema extends z.ZodObject>(
  spec: Omit<ToolSpec<Schema>, "parameters"> & { name: keyof typeof TOOL_PARAMETERS },
): Tool {
  return defineTool({ ...spec, parameters: TOOL_PARAMETERS[spec.name] });
}
