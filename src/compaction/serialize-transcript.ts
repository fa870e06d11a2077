import type { AssistantMessage, ImageBlock, Message, TextBlock, ToolResultMessage } from "../core/index.js";

/**
 * Renders messages as the plain-text transcript the compaction model summarises. Each entry starts
 * with a role marker: `[User]:`, `[Assistant]:`, `[Assistant thinking]:`, `[Assistant tool calls]:`
 * (one call a line: name and JSON arguments) and `[Tool result]:` (tool name, and `(error)` for a
 * failed call). Images become `[image: <media type>]`. Nothing is truncated (spec v1).
 */
export function serializeTranscript(messages: readonly Message[]): string {
  const entries: string[] = [];
  for (const message of messages) {
    if (message.role === "user") entries.push(`[User]: ${renderParts(message.content)}`);
    else if (message.role === "assistant") entries.push(...renderAssistant(message));
    else entries.push(...renderToolResults(message));
  }
  return entries.join("\n\n");
}

function renderAssistant(message: AssistantMessage): string[] {
  const entries: string[] = [];
  const calls: string[] = [];
  for (const block of message.content) {
    if (block.type === "text") entries.push(`[Assistant]: ${block.text}`);
    else if (block.type === "thinking") {
      const text = thinkingText(block);
      if (text !== "") entries.push(`[Assistant thinking]: ${text}`);
    } else calls.push(`${block.name} ${JSON.stringify(block.arguments)}`);
  }
  if (calls.length > 0) entries.push(`[Assistant tool calls]:\n${calls.join("\n")}`);
  return entries;
}

function thinkingText(block: { text: string; redacted?: string }): string {
  if (block.text.trim() !== "") return block.text;
  return block.redacted === undefined ? "" : "[redacted]";
}

function renderToolResults(message: ToolResultMessage): string[] {
  return message.content.map((block) => {
    const flag = block.isError ? " (error)" : "";
    return `[Tool result]: ${block.toolName}${flag}\n${renderParts(block.content)}`;
  });
}

function renderParts(parts: ReadonlyArray<TextBlock | ImageBlock>): string {
  return parts.map((part) => (part.type === "text" ? part.text : `[image: ${part.mediaType}]`)).join("\n");
}
