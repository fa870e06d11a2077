import type {
  ChatCompletionContentPart,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type {
  AssistantMessage,
  EffectiveContext,
  ImageBlock,
  Message,
  TextBlock,
  ToolResultMessage,
} from "../../core/index.js";
import { groupToolResults, renderCompactionText } from "../shared/index.js";

type UserParam = Extract<ChatCompletionMessageParam, { role: "user" }>;
type AssistantParam = Extract<ChatCompletionMessageParam, { role: "assistant" }>;

/**
 * Renders the system prompt and effective context as Chat Completions messages that every
 * OpenAI-compatible server accepts: text-only user content as a plain string (some servers take no
 * part arrays), consecutive user or assistant messages merged (chat templates that demand
 * alternation), each tool call answered by a `tool` message, images from tool results moved into
 * a user message after them (tool messages carry text only), and thinking dropped (never echoed).
 */
export function renderOpenAIChatMessages(
  systemPrompt: string,
  context: EffectiveContext,
): ChatCompletionMessageParam[] {
  const rendered: ChatCompletionMessageParam[] = [];
  for (const message of groupToolResults(context.messages)) {
    for (const param of renderMessage(message)) appendMerged(rendered, param);
  }
  if (context.compaction !== undefined) {
    prependUserText(rendered, renderCompactionText(context.compaction.summary));
  } else if (rendered[0] !== undefined && rendered[0].role !== "user") {
    prependUserText(rendered, "(conversation continues)");
  }
  return systemPrompt === "" ? rendered : [{ role: "system", content: systemPrompt }, ...rendered];
}

function renderMessage(message: Message): ChatCompletionMessageParam[] {
  switch (message.role) {
    case "user": {
      const content = renderUserContent(message.content);
      return content === "" ? [] : [{ role: "user", content }];
    }
    case "assistant":
      return renderAssistant(message);
    case "tool":
      return renderToolResults(message);
  }
}

function renderUserContent(blocks: Array<TextBlock | ImageBlock>): UserParam["content"] {
  if (blocks.every((block) => block.type === "text")) {
    return blocks
      .map((block) => block.text)
      .filter((text) => text !== "")
      .join("\n\n");
  }
  return blocks.map((block) =>
    block.type === "text" ? { type: "text", text: block.text } : imagePart(block),
  );
}

function imagePart(image: ImageBlock): ChatCompletionContentPart {
  return { type: "image_url", image_url: { url: `data:${image.mediaType};base64,${image.data}` } };
}

function renderAssistant(message: AssistantMessage): AssistantParam[] {
  const text = message.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
  const toolCalls = message.content
    .filter((block) => block.type === "tool-call")
    .map(
      (call): ChatCompletionMessageFunctionToolCall => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      }),
    );
  if (text === "" && toolCalls.length === 0) return [];
  return [
    {
      role: "assistant",
      content: text === "" ? null : text,
      ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    },
  ];
}

/** One `tool` message per result; images follow in a single user message, after all of them. */
function renderToolResults(message: ToolResultMessage): ChatCompletionMessageParam[] {
  const images: ChatCompletionContentPart[] = [];
  const tools = message.content.map((result): ChatCompletionMessageParam => {
    const text = result.content
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("\n");
    const resultImages = result.content.filter((block) => block.type === "image");
    if (resultImages.length > 0) {
      images.push({
        type: "text",
        text: `Images returned by the ${result.toolName} tool (call ${result.toolCallId}):`,
      });
      images.push(...resultImages.map(imagePart));
    }
    const note =
      resultImages.length === 0
        ? ""
        : `\n(${resultImages.length} image(s) attached in the next user message)`;
    // As the tool returned it: the first line's indentation is part of the output (code, tables).
    const content = text === "" ? note.trimStart() : `${text}${note}`;
    return {
      role: "tool",
      tool_call_id: result.toolCallId,
      content: content.trim() === "" ? "(no output)" : content,
    };
  });
  return images.length === 0 ? tools : [...tools, { role: "user", content: images }];
}

function appendMerged(rendered: ChatCompletionMessageParam[], next: ChatCompletionMessageParam): void {
  const last = rendered.at(-1);
  if (last?.role === "user" && next.role === "user") {
    last.content = mergeUserContent(last.content, next.content);
  } else if (last?.role === "assistant" && next.role === "assistant") {
    mergeAssistant(last, next);
  } else {
    rendered.push(next);
  }
}

function mergeUserContent(first: UserParam["content"], second: UserParam["content"]): UserParam["content"] {
  if (typeof first === "string" && typeof second === "string") return `${first}\n\n${second}`;
  return [...asParts(first), ...asParts(second)];
}

function asParts(content: UserParam["content"]): ChatCompletionContentPart[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function mergeAssistant(last: AssistantParam, next: AssistantParam): void {
  const text = [last.content, next.content]
    .filter((part) => typeof part === "string" && part !== "")
    .join("\n\n");
  last.content = text === "" ? null : text;
  const calls = [...(last.tool_calls ?? []), ...(next.tool_calls ?? [])];
  if (calls.length > 0) last.tool_calls = calls;
}

function prependUserText(rendered: ChatCompletionMessageParam[], text: string): void {
  const first = rendered[0];
  if (first?.role === "user") first.content = mergeUserContent(text, first.content);
  else rendered.unshift({ role: "user", content: text });
}
