import type {
  Base64ImageSource,
  CacheControlEphemeral,
  ContentBlockParam,
  ImageBlockParam,
  TextBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import {
  type AssistantMessage,
  type EffectiveContext,
  type ImageBlock,
  type Message,
  plainCallId,
  type TextBlock,
  type ToolResultMessage,
  type UserMessage,
} from "../../core/index.js";
import { groupToolResults, renderCompactionText } from "../shared/index.js";

/** The usual cache breakpoint: the default five-minute ephemeral cache. */
export const EPHEMERAL: CacheControlEphemeral = { type: "ephemeral" };
/**
 * The breakpoint at the end of what clearing has settled (see `EffectiveContext.settledToolCallId`),
 * and every one before it (the API wants longer lifetimes first): written at 2x input instead of
 * 1.25x, it outlives a pause of up to an hour, after which the prompt up to it is read at 0.1x
 * instead of written again. The part it adds is written once per clearing (later clearings stub
 * only results after it), so one pause of five minutes or more pays for it.
 */
export const EPHEMERAL_HOUR: CacheControlEphemeral = { type: "ephemeral", ttl: "1h" };

/** A message as sent: role plus content blocks (never the string shorthand, so blocks can be marked). */
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

/** Where the assistant messages we may echo thinking back to came from. */
export interface AnthropicRenderTarget {
  provider: string;
}

/**
 * Renders the effective context into Anthropic messages that form a valid request: user/assistant
 * alternation (same-role neighbours merged), every tool_use answered in the next user message, the
 * compaction block first (with a cache breakpoint), and a breakpoint on the latest turn.
 */
export function renderAnthropicMessages(
  context: EffectiveContext,
  target: AnthropicRenderTarget,
): AnthropicMessage[] {
  return renderAnthropicConversation(context, target).messages;
}

/**
 * `renderAnthropicMessages`, saying also which breakpoint the settled points took (undefined when
 * none did): the request's breakpoints before them must live as long, and leave room for them.
 */
export function renderAnthropicConversation(
  context: EffectiveContext,
  target: AnthropicRenderTarget,
): { messages: AnthropicMessage[]; settled: CacheControlEphemeral | undefined } {
  const rendered: AnthropicMessage[] = [];
  for (const message of groupToolResults(context.messages)) {
    const next = renderMessage(message, target);
    if (next.content.length > 0) appendMerged(rendered, next);
  }
  const latest = markLatestTurn(rendered);
  const marker = target.provider === "anthropic" ? EPHEMERAL_HOUR : EPHEMERAL;
  const settled = markSettled(rendered, context.settledToolCallIds ?? [], latest, marker)
    ? marker
    : undefined;
  if (context.compaction !== undefined) {
    const block: TextBlockParam = {
      type: "text",
      text: renderCompactionText(context.compaction.summary),
      cache_control: settled ?? EPHEMERAL,
    };
    prependUserBlock(rendered, block);
  } else if (rendered[0]?.role === "assistant") {
    prependUserBlock(rendered, { type: "text", text: "(conversation continues)" });
  }
  return { messages: rendered, settled };
}

/**
 * Marks the results of the settled tool calls (those that are there and are not the latest turn's
 * own breakpoint) with `marker`; says whether it marked any.
 */
function markSettled(
  rendered: AnthropicMessage[],
  toolCallIds: readonly string[],
  latest: ContentBlockParam | undefined,
  marker: CacheControlEphemeral,
): boolean {
  const ids = new Set(toolCallIds.map(toolUseId));
  let marked = false;
  for (const message of rendered) {
    if (message.role !== "user") continue;
    for (const block of message.content) {
      if (block.type !== "tool_result" || !ids.has(block.tool_use_id) || block === latest) continue;
      block.cache_control = marker;
      marked = true;
    }
  }
  return marked;
}

function renderMessage(message: Message, target: AnthropicRenderTarget): AnthropicMessage {
  switch (message.role) {
    case "user":
      return { role: "user", content: renderUserContent(message) };
    case "tool":
      return { role: "user", content: renderToolResults(message) };
    case "assistant":
      return { role: "assistant", content: renderAssistantContent(message, target) };
  }
}

function renderUserContent(message: UserMessage): ContentBlockParam[] {
  return message.content.flatMap((block) => renderTextOrImage(block));
}

function renderTextOrImage(block: TextBlock | ImageBlock): Array<TextBlockParam | ImageBlockParam> {
  if (block.type === "image") {
    return [
      {
        type: "image",
        source: {
          type: "base64",
          media_type: block.mediaType as Base64ImageSource["media_type"],
          data: block.data,
        },
      },
    ];
  }
  // The API rejects empty text blocks.
  return block.text === "" ? [] : [{ type: "text", text: block.text }];
}

function renderToolResults(message: ToolResultMessage): ContentBlockParam[] {
  return message.content.map((result) => {
    const content = result.content.flatMap((block) => renderTextOrImage(block));
    return {
      type: "tool_result",
      tool_use_id: toolUseId(result.toolCallId),
      ...(content.length === 0 ? {} : { content }),
      ...(result.isError ? { is_error: true } : {}),
    };
  });
}

function renderAssistantContent(
  message: AssistantMessage,
  target: AnthropicRenderTarget,
): ContentBlockParam[] {
  // Signatures are only valid for the API (and account) that issued them; thinking from anywhere
  // else is dropped rather than sent as text the model would take for its own words.
  const echoThinking = message.api === "anthropic-messages" && message.provider === target.provider;
  return message.content.flatMap((block) => renderAssistantBlock(block, echoThinking));
}

function renderAssistantBlock(
  block: AssistantMessage["content"][number],
  echoThinking: boolean,
): ContentBlockParam[] {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : [{ type: "text", text: block.text }];
    case "tool-call":
      return [{ type: "tool_use", id: toolUseId(block.id), name: block.name, input: block.arguments }];
    case "thinking":
      if (!echoThinking) return [];
      if (block.redacted !== undefined) return [{ type: "redacted_thinking", data: block.redacted }];
      return block.signature === undefined || block.signature === ""
        ? []
        : [{ type: "thinking", thinking: block.text, signature: block.signature }];
  }
}

/**
 * Anthropic tool ids must match ^[a-zA-Z0-9_-]+$. Ids from other APIs pass unchanged when they
 * already do; others are rewritten the same way for the call and its result, so pairing holds.
 */
export function toolUseId(id: string): string {
  return plainCallId(id);
}

function appendMerged(rendered: AnthropicMessage[], next: AnthropicMessage): void {
  const last = rendered.at(-1);
  if (last === undefined || last.role !== next.role) {
    rendered.push(next);
    return;
  }
  // tool_result blocks must lead the user message that answers a tool_use.
  const merged = [...last.content, ...next.content];
  last.content = [
    ...merged.filter((block) => block.type === "tool_result"),
    ...merged.filter((block) => block.type !== "tool_result"),
  ];
}

function prependUserBlock(rendered: AnthropicMessage[], block: TextBlockParam): void {
  const first = rendered[0];
  if (first?.role === "user") first.content.unshift(block);
  else rendered.unshift({ role: "user", content: [block] });
}

/** A breakpoint on the last block of the latest user-side message caches the whole conversation so far. */
function markLatestTurn(rendered: AnthropicMessage[]): ContentBlockParam | undefined {
  const latest = rendered.findLast((message) => message.role === "user");
  const block = latest?.content.at(-1);
  // User-side messages hold only text, image and tool_result blocks, all of which take a breakpoint.
  if (block !== undefined) (block as TextBlockParam).cache_control = EPHEMERAL;
  return block;
}
