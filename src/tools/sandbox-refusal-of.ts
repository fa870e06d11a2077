import type { ToolCallBlock } from "../core/index.js";
import { SandboxRefusal } from "../sandbox/sandbox-error.js";
import type { ToolContext } from "./tool.js";
import { accessTarget } from "./tool-paths.js";

/** The built-in tools that write the file their `path` names. */
const WRITING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

/**
 * What the sandbox would answer a `write` or `edit` call, found before the user is asked or the
 * front-end reads the file for a diff: the refusal's text (naming the rule), or undefined when the
 * call may go on (other tools, no sandbox, an allowed path). The tool checks again when it runs:
 * this only spares a question whose yes would be refused anyway.
 */
export function sandboxRefusalOf(
  call: ToolCallBlock,
  context: Pick<ToolContext, "cwd" | "sandbox">,
): string | undefined {
  if (context.sandbox === undefined || !WRITING_TOOLS.has(call.name)) return undefined;
  const given = call.arguments.path;
  if (typeof given !== "string" || given === "") return undefined;
  try {
    accessTarget(context, given, "write");
    return undefined;
  } catch (error) {
    if (error instanceof SandboxRefusal) return error.message;
    throw error;
  }
}
