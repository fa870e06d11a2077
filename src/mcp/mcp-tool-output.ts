import type { ImageBlock, TextBlock } from "../core/index.js";
import type { ToolOutput } from "../tools/index.js";

/** Text a single MCP tool result may hand the model; beyond it the text is cut with a note. */
export const MAX_MCP_OUTPUT_CHARS = 100_000;

/** The parts of an MCP `CallToolResult` panto reads (kept loose: servers vary). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
  /** The result shape of protocol version 2024-10-07 and older. */
  toolResult?: unknown;
}

type Part = Record<string, unknown>;

/**
 * An MCP tool result as a panto tool output: text and images as they are; audio, embedded resources
 * and resource links described in text; structured content as JSON when there is no content.
 */
export function toToolOutput(result: McpCallResult): ToolOutput {
  const parts = Array.isArray(result.content) ? (result.content as Part[]) : [];
  const content: Array<TextBlock | ImageBlock> = parts.map(toBlock);
  const structured = result.structuredContent ?? result.toolResult;
  if (content.length === 0 && structured !== undefined)
    content.push({ type: "text", text: JSON.stringify(structured) });
  if (content.length === 0) content.push({ type: "text", text: "(the tool returned no content)" });
  return { content: capText(content), isError: result.isError === true };
}

function toBlock(part: Part): TextBlock | ImageBlock {
  const text = (value: string): TextBlock => ({ type: "text", text: value });
  switch (part.type) {
    case "text":
      return text(String(part.text ?? ""));
    case "image":
      return typeof part.data === "string" && typeof part.mimeType === "string"
        ? { type: "image", mediaType: part.mimeType, data: part.data }
        : text("[an image without data]");
    case "resource": {
      const resource = (part.resource ?? {}) as Part;
      const body = typeof resource.text === "string" ? `\n${resource.text}` : " (binary content not shown)";
      return text(`[resource ${String(resource.uri ?? "")}]${body}`);
    }
    case "resource_link":
      return text(`[resource link ${String(part.name ?? "")} ${String(part.uri ?? "")}]`);
    default:
      return text(
        `[${String(part.type)} content${typeof part.mimeType === "string" ? ` ${part.mimeType}` : ""} not shown]`,
      );
  }
}

function capText(content: Array<TextBlock | ImageBlock>): Array<TextBlock | ImageBlock> {
  let room = MAX_MCP_OUTPUT_CHARS;
  return content.map((block) => {
    if (block.type !== "text") return block;
    const kept =
      block.text.length <= room
        ? block.text
        : `${block.text.slice(0, Math.max(0, room))}\n[output cut at ${MAX_MCP_OUTPUT_CHARS} characters]`;
    room -= Math.min(room, block.text.length);
    return { type: "text", text: kept };
  });
}
