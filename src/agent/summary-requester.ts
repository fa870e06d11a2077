import type { SummariseFn } from "../compaction/index.js";
import type { ModelClient, Usage } from "../core/index.js";
import { optional } from "../core/index.js";
import { assistantText } from "./assistant-text.js";

/**
 * The model call a compaction is handed: one request to the client for `modelId`, COMPACTION.md as
 * the system prompt, the transcript envelope as the only user message, no tools, not cached. `onCharacters`
 * hears how much summary text has streamed so far; `onUsage` what each request reported it cost.
 */
export function summaryRequester(
  clientFor: (modelId: string) => ModelClient,
  onCharacters?: (characters: number) => void,
  onUsage?: (modelId: string, usage: Usage) => void,
): SummariseFn {
  return async (modelId, request, signal) => {
    let characters = 0;
    const message = await clientFor(modelId).stream(
      {
        systemPrompt: request.systemPrompt,
        context: { messages: [{ role: "user", content: [{ type: "text", text: request.userPrompt }] }] },
        tools: [],
        // Each summary request's transcript is its own: caching it would cost more and save nothing.
        oneOff: true,
      },
      {
        ...optional("signal", signal),
        onEvent: (event) => {
          if (event.type !== "text-delta") return;
          characters += event.text.length;
          onCharacters?.(characters);
        },
      },
    );
    if (message.usage !== undefined) onUsage?.(modelId, message.usage);
    return { text: assistantText(message) };
  };
}
