import { randomBytes } from "node:crypto";
import type { ToolResultBlock } from "../../core/index.js";
import { runTool } from "../../tools/index.js";
import type { RunContext } from "../run-context.js";

/** What `!COMMAND` did: its output as shown, and whether it failed (non-zero exit, timeout). */
export interface ShellEscapeResult {
  output: string;
  isError: boolean;
}

/**
 * `!COMMAND`: runs the command through the bash tool itself (so the same timeout, output cap and
 * secret-free environment apply, and no approval is asked: the user typed it), then adds the
 * command and its output to the conversation as a user message, so the model sees what the user saw.
 */
export async function runShellEscape(
  run: RunContext,
  command: string,
  signal: AbortSignal,
): Promise<ShellEscapeResult> {
  const result = await runTool(
    run.tools,
    {
      type: "tool-call",
      id: `shell_${randomBytes(4).toString("hex")}`,
      name: "bash",
      arguments: { command },
    },
    { cwd: run.cwd, signal },
  );
  const output = resultText(result);
  await run.session.appendMessage({
    role: "user",
    content: [{ type: "text", text: `I ran this shell command myself:\n$ ${command}\n${output}` }],
  });
  return { output, isError: result.isError };
}

function resultText(result: ToolResultBlock): string {
  return result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join("\n");
}
