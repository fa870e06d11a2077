import type { ApiKind, AssistantMessage, EffectiveContext, ModelClient, StreamEvent } from "../core/index.js";
import { optional } from "../core/index.js";
import type { AgentEvent } from "./agent-events.js";
import type { AgentOptions } from "./agent-options.js";
import { PartialAnswer } from "./partial-answer.js";

export interface SendRequestInput {
  options: AgentOptions;
  client: ModelClient;
  /** The active "provider/model", for the request-started event. */
  model: string;
  signal: AbortSignal | undefined;
  /** Told when an interrupted answer was kept in the session (so the turn stays in the context). */
  onPartialKept: () => void;
}

/**
 * Sends one request (system prompt, tool definitions, effective context) and streams its answer,
 * forwarding text, thinking, tool calls and retry waits as agent events. Ctrl-C during the answer
 * keeps what streamed so far (see `keepPartial`) before the interruption is thrown on.
 */
export async function sendRequest(input: SendRequestInput): Promise<AssistantMessage> {
  const { options, client, signal } = input;
  const { onEvent, systemPrompt, tools, maxOutputTokens } = options;
  const context = options.session.effectiveContext();
  const request = {
    systemPrompt,
    context,
    tools: tools.map((tool) => tool.definition),
    ...optional("maxOutputTokens", maxOutputTokens),
  };
  onEvent({ type: "request-started", model: input.model });
  const partial = new PartialAnswer();
  try {
    return await client.stream(request, {
      ...optional("signal", signal),
      onEvent: (event) => {
        partial.see(event);
        forwardStreamEvent(event, onEvent);
      },
    });
  } catch (thrown) {
    if (signal?.aborted && !partial.empty) {
      await keepPartial(options, partial, client, context);
      input.onPartialKept();
    }
    throw thrown;
  }
}

/**
 * Ctrl-C during an answer: what streamed so far stays in the session and the context as an
 * assistant message marked aborted, and its tool calls (which never ran) get results saying so.
 */
async function keepPartial(
  options: AgentOptions,
  partial: PartialAnswer,
  client: ModelClient,
  context: EffectiveContext,
): Promise<void> {
  const { session } = options;
  const message = partial.message({
    provider: client.provider,
    model: client.model,
    api: knownApi(context, client) ?? "openai-chat",
  });
  await session.appendMessage(message);
  const results = partial.notRunResults();
  if (results.length > 0) await session.appendMessage({ role: "tool", content: results });
}

/** The wire protocol of the latest answer from this client's provider and model in the context. */
function knownApi(context: EffectiveContext, client: ModelClient): ApiKind | undefined {
  const answer = context.messages.findLast(
    (message): message is AssistantMessage =>
      message.role === "assistant" && message.provider === client.provider && message.model === client.model,
  );
  return answer?.api;
}

function forwardStreamEvent(event: StreamEvent, onEvent: (event: AgentEvent) => void): void {
  switch (event.type) {
    case "text-delta":
    case "thinking-delta":
      onEvent(event);
      return;
    case "tool-call-end":
      onEvent({ type: "tool-call", call: event.call });
      return;
    case "retry-wait":
      onEvent(event);
      return;
    case "tool-call-start":
      return;
  }
}
