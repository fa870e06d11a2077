import type {
  ResponseFunctionCallOutputItemList,
  ResponseInputItem,
  ResponseInputMessageContentList,
} from "openai/resources/responses/responses";
import type {
  AssistantMessage,
  EffectiveContext,
  ImageBlock,
  Message,
  TextBlock,
  ThinkingBlock,
  ToolResultMessage,
} from "../../core/index.js";
import { renderCompactionText } from "../shared/compaction-text.js";
import { groupToolResults } from "../shared/group-tool-results.js";

/**
 * Renders the effective context as Responses API input items. The compaction block becomes user
 * text at the very start (merged into the first user message when there is one); tool calls are
 * `function_call` items, each followed by its `function_call_output`; reasoning items are echoed
 * back with their encrypted content (the request is stateless, `store: false`).
 */
export function renderResponsesInput(context: EffectiveContext): ResponseInputItem[] {
  const messages = groupToolResults(context.messages);
  const items = messages.flatMap(renderMessage);
  if (context.compaction === undefined) return items;
  const summary: ResponseInputMessageContentList[number] = {
    type: "input_text",
    text: renderCompactionText(context.compaction.summary),
  };
  const first = items[0];
  if (first !== undefined && "role" in first && first.role === "user" && Array.isArray(first.content)) {
    return [{ ...first, content: [summary, ...first.content] }, ...items.slice(1)];
  }
  return [{ type: "message", role: "user", content: [summary] }, ...items];
}

function renderMessage(message: Message): ResponseInputItem[] {
  if (message.role === "user") {
    return [{ type: "message", role: "user", content: message.content.map(renderUserPart) }];
  }
  if (message.role === "tool") return renderToolResults(message);
  return renderAssistant(message);
}

function renderUserPart(block: TextBlock | ImageBlock): ResponseInputMessageContentList[number] {
  return block.type === "text"
    ? { type: "input_text", text: block.text }
    : { type: "input_image", detail: "auto", image_url: dataUrl(block) };
}

function dataUrl(image: ImageBlock): string {
  return `data:${image.mediaType};base64,${image.data}`;
}

/**
 * Assistant content in its original order. Reasoning from this API is echoed only with its
 * encrypted content, and only when an item follows it (the API rejects a reasoning item without
 * the output it led to); reasoning from another API is dropped.
 */
function renderAssistant(message: AssistantMessage): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const ownReasoning = message.api === "openai-responses";
  let text = "";
  const flushText = (): void => {
    if (text !== "") items.push({ type: "message", role: "assistant", content: text });
    text = "";
  };
  message.content.forEach((block, index) => {
    if (block.type === "text") {
      text += block.text;
      return;
    }
    flushText();
    if (block.type === "tool-call") {
      items.push({
        type: "function_call",
        call_id: block.id,
        name: block.name,
        arguments: renderArguments(block.arguments),
      });
    } else if (ownReasoning && isEchoable(block) && hasOutputAfter(message, index)) {
      items.push({
        type: "reasoning",
        id: block.signature,
        summary: block.text === "" ? [] : [{ type: "summary_text", text: block.text }],
        encrypted_content: block.redacted,
      });
    }
  });
  flushText();
  return items;
}

/** A reasoning item this adapter read: its item id in `signature`, its encrypted content in `redacted`. */
function isEchoable(block: ThinkingBlock): block is ThinkingBlock & { signature: string; redacted: string } {
  return block.signature !== undefined && block.redacted !== undefined;
}

function hasOutputAfter(message: AssistantMessage, index: number): boolean {
  return message.content
    .slice(index + 1)
    .some((block) => block.type === "tool-call" || (block.type === "text" && block.text !== ""));
}

/** Echoes what the model wrote: malformed arguments kept under `_raw` go back verbatim. */
function renderArguments(args: Record<string, unknown>): string {
  const keys = Object.keys(args);
  if (keys.length === 1 && keys[0] === "_raw" && typeof args._raw === "string") return args._raw;
  return JSON.stringify(args);
}

function renderToolResults(message: ToolResultMessage): ResponseInputItem[] {
  return message.content.map((result) => ({
    type: "function_call_output",
    call_id: result.toolCallId,
    output: renderToolOutput(result.content, result.isError),
  }));
}

/** Plain text when the result is text only; a content list when it carries images. */
function renderToolOutput(
  content: Array<TextBlock | ImageBlock>,
  isError: boolean,
): string | ResponseFunctionCallOutputItemList {
  const prefix = isError ? "Error: " : "";
  if (content.every((block) => block.type === "text")) {
    return prefix + content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
  }
  const parts: ResponseFunctionCallOutputItemList = content.map((block) =>
    block.type === "text"
      ? { type: "input_text", text: block.text }
      : { type: "input_image", detail: "auto", image_url: dataUrl(block) },
  );
  return isError ? [{ type: "input_text", text: prefix.trim() }, ...parts] : parts;
}
