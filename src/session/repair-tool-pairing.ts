import {
  type AssistantMessage,
  type Message,
  missingToolResult,
  type ToolCallBlock,
  type ToolResultBlock,
  type ToolResultMessage,
} from "../core/index.js";

/** Messages whose tool calls and tool results pair up, and what had to change to get there. */
export interface PairingRepair {
  messages: Message[];
  problems: string[];
}

function orphanProblem(result: ToolResultBlock, why: string): string {
  return `tool result for call ${result.toolCallId} (${result.toolName}) ${why}; left out of the context`;
}

/** The tool messages right after index `from` (the results answering the assistant message before them). */
function toolRunEnd(messages: readonly Message[], from: number): number {
  let end = from;
  while (messages[end]?.role === "tool") end++;
  return end;
}

/**
 * Keeps the results in `run` that answer one of `calls`, once each. Results with no such call (or a
 * second result for the same call) are dropped, and so are tool messages left empty.
 */
function keepAnsweringResults(
  run: readonly ToolResultMessage[],
  calls: readonly ToolCallBlock[],
  problems: string[],
): { kept: ToolResultMessage[]; answered: Set<string> } {
  const callIds = new Set(calls.map((call) => call.id));
  const answered = new Set<string>();
  const kept: ToolResultMessage[] = [];
  for (const message of run) {
    const content = message.content.filter((result) => {
      if (!callIds.has(result.toolCallId)) {
        problems.push(orphanProblem(result, "has no tool call before it"));
        return false;
      }
      if (answered.has(result.toolCallId)) {
        problems.push(orphanProblem(result, "repeats an earlier result"));
        return false;
      }
      answered.add(result.toolCallId);
      return true;
    });
    if (content.length === message.content.length) kept.push(message);
    else if (content.length > 0) kept.push({ ...message, content });
  }
  return { kept, answered };
}

function firstWithId(calls: readonly ToolCallBlock[], index: number): boolean {
  return calls.findIndex((call) => call.id === calls[index]?.id) === index;
}

/** The assistant message and the tool messages answering it, repaired. */
function repairExchange(
  assistant: AssistantMessage | undefined,
  run: readonly ToolResultMessage[],
  problems: string[],
): Message[] {
  const calls = (assistant?.content ?? []).filter(
    (block): block is ToolCallBlock => block.type === "tool-call",
  );
  const { kept, answered } = keepAnsweringResults(run, calls, problems);
  // One stand-in per unanswered id: a message holding two calls with one id (an older panto took
  // whatever ids the server sent) must not get two results for it.
  const missing = calls.filter((call, index) => !answered.has(call.id) && firstWithId(calls, index));
  for (const call of missing) {
    problems.push(
      `tool call ${call.id} (${call.name}) has no recorded result; a synthetic error result stands in for it`,
    );
  }
  if (missing.length > 0) {
    const [first, ...rest] = kept;
    const synthetic = missing.map(missingToolResult);
    const merged: ToolResultMessage =
      first === undefined
        ? { role: "tool", content: synthetic }
        : { ...first, content: [...first.content, ...synthetic] };
    kept.splice(0, kept.length, merged, ...rest);
  }
  return assistant === undefined ? kept : [assistant, ...kept];
}

/**
 * Makes tool calls and results pair up, in memory only (DESIGN "Session file": replay validates
 * protocol pairing). A result belongs to the assistant message right before its run of tool
 * messages. A call without a result gets a synthetic error result right after its assistant message,
 * so a session whose process died while a tool ran still yields a valid request; a result without a
 * call is dropped. Every change is reported.
 */
export function repairToolPairing(messages: readonly Message[]): PairingRepair {
  const problems: string[] = [];
  const repaired: Message[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as Message;
    if (message.role === "user") {
      repaired.push(message);
      index++;
      continue;
    }
    const assistant = message.role === "assistant" ? message : undefined;
    const runStart = assistant === undefined ? index : index + 1;
    const runEnd = toolRunEnd(messages, runStart);
    const run = messages.slice(runStart, runEnd) as ToolResultMessage[];
    repaired.push(...repairExchange(assistant, run, problems));
    index = runEnd;
  }
  return { messages: repaired, problems };
}
