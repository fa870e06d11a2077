import type { ToolResultBlock } from "./content.js";

/** How the result of a tool call that never ran begins: denied by the user, blocked by a hook, interrupted first. */
export const NOT_RUN_OPENINGS = [
  "The user did not allow this tool call.",
  "Blocked by a PreToolUse hook:",
  "Not run: ",
] as const;

/** Whether a result says its call never ran (so it cannot have changed anything). */
export function wasNotRun(result: ToolResultBlock): boolean {
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : "";
  return result.isError && NOT_RUN_OPENINGS.some((opening) => text.startsWith(opening));
}
