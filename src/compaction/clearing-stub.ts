import { bashRunOutcome, formatCount, type ToolCallBlock, type ToolResultBlock } from "../core/index.js";

/** How much of a call's argument the stub quotes: enough to tell calls apart, one line. */
const ARGUMENT_CHARS = 60;

/** The argument that says what a call did, by the tools' own names for it. */
const TELLING_ARGUMENTS = ["command", "path", "file_path", "pattern", "query", "url", "name"];

/**
 * The one line that stands in for a cleared tool result: the call (tool and its telling argument),
 * how it ended, its size, and how to read it back, e.g.
 * `[cleared to save context: output of bash "npm test" (exit 1), 12,345 tokens; recall {"tool_result": "toolu_01"} reads it back]`.
 */
export function clearingStub(
  result: ToolResultBlock,
  call: ToolCallBlock | undefined,
  tokens: number,
): string {
  const argument = call === undefined ? undefined : tellingArgument(call.arguments);
  const what = argument === undefined ? result.toolName : `${result.toolName} ${JSON.stringify(argument)}`;
  const ending = endingOf(result);
  // Spaced as the issue and the recall tool's description write it.
  const recall = `{"tool_result": ${JSON.stringify(result.toolCallId)}}`;
  return `[cleared to save context: output of ${what}${ending === undefined ? "" : ` (${ending})`}, ${formatCount(tokens)} tokens; recall ${recall} reads it back]`;
}

function tellingArgument(args: Record<string, unknown>): string | undefined {
  const key = TELLING_ARGUMENTS.find((name) => typeof args[name] === "string");
  const value = key === undefined ? Object.values(args).find((item) => typeof item === "string") : args[key];
  if (typeof value !== "string") return undefined;
  const line = value.replace(/\s+/g, " ").trim();
  return line.length > ARGUMENT_CHARS ? `${line.slice(0, ARGUMENT_CHARS - 3)}...` : line;
}

/** How a command ended, read as the ledger reads it ("exit 1", "timed out"); "error" for another failed call. */
function endingOf(result: ToolResultBlock): string | undefined {
  const text = result.content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  const outcome = result.toolName === "bash" ? bashRunOutcome(text) : undefined;
  if (outcome !== undefined) return outcome.ending;
  return result.isError ? "error" : undefined;
}
