import type { ToolOutput } from "./tool.js";

/** A successful plain-text tool output. */
export function textOutput(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: false };
}

/** A failed tool output whose text tells the model what went wrong and, where possible, what to do. */
export function errorOutput(text: string): ToolOutput {
  return { content: [{ type: "text", text }], isError: true };
}
