import type { AssistantMessage, EffectiveContext, Message, ToolResultBlock } from "../core/index.js";
import { probeContext } from "./probe-context.js";

/** Model requests one probe with recall may make at most (its answer included). */
export const MAX_RECALL_PROBE_REQUESTS = 12;

/** What a probe with recall needs: one model request, and the recall tool. */
export interface RecallProbeDeps {
  /** Sends one request after `context` (system prompt and tools as the next request carries them). */
  ask: (context: EffectiveContext) => Promise<AssistantMessage>;
  /** Runs one `recall` call on the session file. */
  recall: (args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>;
  /** Called before each request. */
  onRequest?: () => void;
  maxRequests?: number;
}

/**
 * Asks the probe after `context` with the `recall` tool available: each answer's recall calls are
 * run on the session file and their results sent back, until the model answers without a tool
 * call (or the request cap is reached, when the answer is the text given so far). Any other tool
 * call gets an error result: a probe does no work. Nothing is written anywhere.
 */
export async function probeWithRecall(
  context: EffectiveContext,
  question: string,
  deps: RecallProbeDeps,
): Promise<{ answer: string; requests: number; recallCalls: number }> {
  let current = probeContext(context, question);
  const texts: string[] = [];
  let recallCalls = 0;
  const cap = deps.maxRequests ?? MAX_RECALL_PROBE_REQUESTS;
  for (let request = 1; request <= cap; request++) {
    deps.onRequest?.();
    const message = await deps.ask(current);
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    if (text.trim() !== "") texts.push(text);
    const calls = message.content.filter((block) => block.type === "tool-call");
    if (calls.length === 0 || request === cap)
      return { answer: texts.join("\n"), requests: request, recallCalls };
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      const output =
        call.name === "recall"
          ? await deps.recall(call.arguments)
          : { text: `${call.name} is not available in a fidelity probe: only recall is.`, isError: true };
      if (call.name === "recall") recallCalls++;
      results.push({
        type: "tool-result",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: output.text }],
        isError: output.isError,
      });
    }
    const next: Message[] = [...current.messages, message, { role: "tool", content: results }];
    current = { ...current, messages: next };
  }
  return { answer: texts.join("\n"), requests: cap, recallCalls };
}
