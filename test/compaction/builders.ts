import type {
  AssistantMessage,
  ImageBlock,
  Message,
  TextBlock,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../src/core/index.js";

/** Small builders for hand-written conversations in the compaction tests. */

export function user(text: string, ...images: ImageBlock[]): UserMessage {
  return { role: "user", content: [{ type: "text", text }, ...images] };
}

export function image(mediaType = "image/png"): ImageBlock {
  return { type: "image", mediaType, data: "iVBORw0KGgo=" };
}

export interface AssistantOptions {
  usage?: Usage;
  model?: string;
  stopReason?: AssistantMessage["stopReason"];
}

export function assistant(
  content: AssistantMessage["content"] | string,
  options: AssistantOptions = {},
): AssistantMessage {
  const blocks: AssistantMessage["content"] =
    typeof content === "string" ? [{ type: "text", text: content }] : content;
  const hasCalls = blocks.some((block) => block.type === "tool-call");
  const message: AssistantMessage = {
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    model: options.model ?? "claude-sonnet-4-5",
    content: blocks,
    stopReason: options.stopReason ?? (hasCalls ? "tool-use" : "stop"),
  };
  if (options.usage !== undefined) message.usage = options.usage;
  return message;
}

export function call(id: string, name: string, args: Record<string, unknown> = {}): ToolCallBlock {
  return { type: "tool-call", id, name, arguments: args };
}

export function results(
  ...items: Array<{ id: string; name: string; text: string; isError?: boolean; images?: ImageBlock[] }>
): ToolResultMessage {
  return {
    role: "tool",
    content: items.map((item) => ({
      type: "tool-result",
      toolCallId: item.id,
      toolName: item.name,
      isError: item.isError ?? false,
      content: [{ type: "text", text: item.text } as TextBlock, ...(item.images ?? [])],
    })),
  };
}

export function usage(
  promptTokens: number,
  resentOutputTokens: number,
  outputTokens = resentOutputTokens,
): Usage {
  return { promptTokens, outputTokens, resentOutputTokens };
}

/** Tool call ids without a result, and result ids without a call (protocol orphans). */
export function orphans(messages: readonly Message[]): { calls: string[]; results: string[] } {
  const callIds = new Set<string>();
  const resultIds = new Set<string>();
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type === "tool-call") callIds.add(block.id);
      if (block.type === "tool-result") resultIds.add(block.toolCallId);
    }
  }
  return {
    calls: [...callIds].filter((id) => !resultIds.has(id)),
    results: [...resultIds].filter((id) => !callIds.has(id)),
  };
}
