import type { ToolRestriction } from "../agent/index.js";
import type { ToolCallBlock } from "../core/index.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { Tool } from "../tools/index.js";
import { isReadOnlyCommand } from "./read-only-command.js";

/** How the model is told to leave plan mode is the user's: every refusal says how. */
const HOW_TO_LEAVE =
  "Plan mode lets you read, search, run commands that only look and update the todo list; finish your turn with the plan. The user leaves plan mode with /plan off (Shift+Tab in the terminal, or the editor's mode menu), and the work is done then.";

/**
 * What plan mode does to one call, checked when the call runs (the tool definitions the model sees
 * stay the same in every mode): reading tools run as usual, and so does `web_fetch` (asked as
 * usual: it changes nothing in the project); write and edit are refused; a command runs in the
 * run's sandbox made read-only, and without a sandbox only a command on the short read-only list
 * (`isReadOnlyCommand`) runs, asked as usual; a request to leave the sandbox, and every other tool
 * that may change things (an MCP tool not marked read-only), are refused.
 */
export function planModeRestriction(
  call: ToolCallBlock,
  tool: Tool,
  sandbox: Sandbox | undefined,
): ToolRestriction | undefined {
  if (tool.kind === "read") return undefined;
  const name = tool.definition.name;
  if (tool.kind === "write") return refuse(`${name} changes files, and plan mode changes nothing.`);
  if (tool.confinable === undefined)
    return name === "web_fetch"
      ? undefined
      : refuse(`${name} may change things, and plan mode changes nothing.`);
  const args = call.arguments !== null && typeof call.arguments === "object" ? call.arguments : {};
  if (tool.confinable.escapeReason(args as Record<string, unknown>) !== undefined)
    return refuse("commands run only inside the read-only sandbox in plan mode; no escape is asked for.");
  if (sandbox !== undefined)
    return {
      sandbox: sandbox.readOnlyView(),
      failureNote: `Plan mode is on: commands run in a read-only sandbox (nothing writable but the private /tmp), so one that changes the project fails. ${HOW_TO_LEAVE}`,
    };
  const command = (args as Record<string, unknown>).command;
  if (typeof command === "string" && isReadOnlyCommand(command)) return undefined;
  return refuse(
    "without a sandbox (--sandbox full), plan mode runs only commands on its read-only list (git status, log, diff, show; ls, cat, head, tail, wc, grep, rg, find without -exec or -delete; no redirection or $).",
  );
}

function refuse(why: string): ToolRestriction {
  return { refuse: `Refused: plan mode is on. ${why} ${HOW_TO_LEAVE}` };
}
