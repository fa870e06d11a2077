import type { AssistantMessage, Message, ToolResultBlock, ToolResultMessage } from "../../core/index.js";

/** Text of the result synthesised for a tool call whose result never made it into the history. */
export const MISSING_RESULT_TEXT = "(no result: the tool call did not complete)";

/**
 * Makes tool calls and results pair up the way every API demands: each assistant message with tool
 * calls is followed by exactly one tool message holding one result per call, in call order. Results
 * split over several tool messages are joined; a call without a result (a session killed mid-tool)
 * gets a synthetic error result; results that answer no call of the assistant message before them
 * are dropped, since no API accepts them.
 */
export function pairToolResults(messages: readonly Message[]): Message[] {
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
      (call) =>
        results.find((result) => result.toolCallId === call.id) ?? {
          type: "tool-result",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text: MISSING_RESULT_TEXT }],
          isError: true,
        },
    ),
  };
}
