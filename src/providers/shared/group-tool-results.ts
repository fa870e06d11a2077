import {
  type AssistantMessage,
  type Message,
  missingToolResult,
  type ToolResultBlock,
  type ToolResultMessage,
} from "../../core/index.js";

/**
 * Groups tool results the way every wire wants them: each assistant message with tool calls is
 * followed by exactly one tool message holding one result per call, in call order. Results split
 * over several tool messages are joined. Pairing itself is the session replay's job
 * (src/session/repair-tool-pairing.ts); for a context that did not come through a session, a call
 * without a result still gets the same stand-in result, and a result that answers no call is left
 * out, since no API accepts either.
 */
export function groupToolResults(messages: readonly Message[]): Message[] {
  const paired: Message[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === "tool") continue;
    paired.push(message);
    if (message.role !== "assistant") continue;
    const calls = message.content.filter((block) => block.type === "tool-call");
    if (calls.length === 0) continue;
    const results: ToolResultBlock[] = [];
    while (messages[index + 1]?.role === "tool") {
      index++;
      results.push(...(messages[index] as ToolResultMessage).content);
    }
    paired.push(resultsInCallOrder(calls, results));
  }
  return paired;
}

function resultsInCallOrder(
  calls: Array<Extract<AssistantMessage["content"][number], { type: "tool-call" }>>,
  results: ToolResultBlock[],
): ToolResultMessage {
  return {
    role: "tool",
    content: calls.map(
      (call) => results.find((result) => result.toolCallId === call.id) ?? missingToolResult(call),
    ),
  };
}
