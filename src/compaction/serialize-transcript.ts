import type { AssistantMessage, ImageBlock, Message, TextBlock, ToolResultMessage } from "../core/index.js";
import { quoteTranscriptText } from "./quote-transcript-text.js";

/**
 * Renders messages as the plain-text transcript the compaction model summarises. Each entry starts
 * with a role marker: `[User]:`, `[Assistant]:`, `[Assistant thinking]:`, `[Assistant tool calls]:`
 * (one call a line: name and JSON arguments) and `[Tool result]:` (tool name, and `(error)` for a
 * failed call). Images become `[image: <media type>]`. Nothing is truncated (spec v1).
 *
 * Everything that comes from the conversation (text, tool names, arguments, media types) is quoted
 * by {@link quoteTranscriptText}: a line inside it that looks like a role marker gets a leading
 * backslash and an envelope tag gets `&lt;`, so only the serialiser's own markers start a turn.
 */
export function serializeTranscript(messages: readonly Message[]): string {
  const entries: string[] = [];
  for (const message of messages) {
    if (message.role === "user") entries.push(`[User]: ${renderParts(message.content)}`);
    else if (message.role === "assistant") renderAssistant(message, entries);
    else renderToolResults(message, entries);
  }
  return entries.join("\n\n");
}

function renderAssistant(message: AssistantMessage, entries: string[]): void {
  let calls = "";
  for (const block of message.content) {
    if (block.type === "text") entries.push(`[Assistant]: ${quoteTranscriptText(block.text)}`);
    else if (block.type === "thinking") {
      const text = thinkingText(block);
      if (text !== "") entries.push(`[Assistant thinking]: ${text}`);
    } else calls += `\n${quoteTranscriptText(`${block.name} ${JSON.stringify(block.arguments)}`)}`;
  }
  if (calls !== "") entries.push(`[Assistant tool calls]:${calls}`);
}

function thinkingText(block: { text: string; redacted?: string }): string {
  if (block.text.trim() !== "") return quoteTranscriptText(block.text);
  return block.redacted === undefined ? "" : "[redacted]";
}

function renderToolResults(message: ToolResultMessage, entries: string[]): void {
  for (const block of message.content) {
    const flag = block.isError ? " (error)" : "";
    entries.push(
      `[Tool result]: ${quoteTranscriptText(block.toolName)}${flag}\n${renderParts(block.content)}`,
    );
  }
}

function renderParts(parts: ReadonlyArray<TextBlock | ImageBlock>): string {
  const first = parts[0];
  if (parts.length === 1 && first !== undefined) return renderPart(first);
  let rendered = "";
  for (let index = 0; index < parts.length; index++) {
    rendered += `${index === 0 ? "" : "\n"}${renderPart(parts[index] as TextBlock | ImageBlock)}`;
  }
  return rendered;
}

function renderPart(part: TextBlock | ImageBlock): string {
  return part.type === "text"
    ? quoteTranscriptText(part.text)
    : `[image: ${quoteTranscriptText(part.mediaType)}]`;
}
