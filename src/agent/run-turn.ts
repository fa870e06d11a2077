import type { AssistantMessage, ToolCallBlock, ToolResultMessage } from "../core/index.js";
import { PantoError } from "../core/index.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentOptions } from "./agent-options.js";
import { assistantText } from "./assistant-text.js";
import { runToolCalls } from "./run-tool-calls.js";

/**
 * How a prompt's turn ended: its answer, or what stopped it; either way whether its tools had run
 * (their results are written, so an interrupted turn keeps them in the context).
 */
export type TurnEnd =
  | { ranTools: boolean; answer: { text: string; stopped?: "max-requests" }; thrown?: undefined }
  | { ranTools: boolean; answer?: undefined; thrown: unknown };

/** Said when the model ends its turn with neither text nor a tool call, so silence is not mistaken for an answer. */
const EMPTY_ANSWER: AgentEvent = {
  type: "warning",
  code: "empty_answer",
  message: "the model returned an empty answer (no text and no tool call)",
};

/** Tool rounds one prompt may run before the agent stops and reports it (a runaway loop guard). */
const MAX_TOOL_ROUNDS = 200;

/**
 * One prompt's requests and tool rounds, until the model answers without tool calls: each answer is
 * written and reported, then its tool calls run and their results are written. Never throws: a
 * failure comes back with whether tools had run (work the model must not forget on an interrupt).
 * `request` sends the turn's next request (with its one retry after an overflow).
 */
export async function runTurn(
  options: AgentOptions,
  request: () => Promise<AssistantMessage>,
  signal: AbortSignal | undefined,
  maxRequests = Number.POSITIVE_INFINITY,
): Promise<TurnEnd> {
  let lastText = "";
  let ranTools = false;
  try {
    for (let round = 0; round < MAX_TOOL_ROUNDS; round++) {
      if (round >= maxRequests) return { ranTools, answer: { text: lastText, stopped: "max-requests" } };
      const message = await request();
      await options.session.appendMessage(message);
      options.onEvent({ type: "assistant-message", message });
      const calls = message.content.filter((block): block is ToolCallBlock => block.type === "tool-call");
      lastText = assistantText(message);
      if (calls.length === 0) {
        if (lastText.trim() === "") options.onEvent(EMPTY_ANSWER);
        return { ranTools, answer: { text: lastText } };
      }
      await runToolRound(options, calls, signal);
      ranTools = true;
      if (signal?.aborted) throw new PantoError("aborted", "interrupted while tools were running");
    }
    throw new PantoError("other", `stopped after ${MAX_TOOL_ROUNDS} tool rounds in one prompt`);
  } catch (thrown) {
    return { ranTools, thrown };
  }
}

/** Runs one round of tool calls, then writes and reports their results. */
async function runToolRound(
  options: AgentOptions,
  calls: ToolCallBlock[],
  signal: AbortSignal | undefined,
): Promise<void> {
  const { session, onEvent } = options;
  const results = await runToolCalls(calls, options, signal, {
    onStart: (call) => onEvent({ type: "tool-started", call }),
    onCheckpoint: (entry) => onEvent({ type: "checkpoint", entry }),
  });
  const notes = options.notes?.() ?? [];
  const last = results.at(-1);
  // With the last result, so the note rides in the message the next request sends anyway.
  if (notes.length > 0 && last !== undefined) last.content.push({ type: "text", text: notes.join("\n") });
  const toolMessage: ToolResultMessage = { role: "tool", content: results };
  await session.appendMessage(toolMessage);
  // Reported only once written, so a result a script has seen survives a crash.
  for (const result of results) onEvent({ type: "tool-result", result });
}
