import type { AssistantMessage } from "../core/index.js";

/** The text of an assistant message: its text blocks joined, thinking and tool calls left out. */
export function assistantText(message: AssistantMessage): string {
  return message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
}
