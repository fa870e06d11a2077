import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import {
  type AssistantMessage,
  optional,
  PantoError,
  type StreamEvent,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
} from "../../core/index.js";
import { networkError } from "../provider-error.js";
import { parseToolArguments, type RequestWatchdog } from "../shared/index.js";
import { checkAnthropicEvent } from "./check-anthropic-event.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import {
  type AnthropicUsageFigures,
  mergeAnthropicUsage,
  normalizeAnthropicUsage,
} from "./normalize-anthropic-usage.js";

type PartialBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; text: string; signature: string }
  | { type: "redacted"; data: string }
  | {
      type: "tool";
      id: string;
      name: string;
      json: string;
      /** The input content_block_start carried: `{}` from Anthropic, the whole input from some proxies. */
      initial: Record<string, unknown>;
      call?: ToolCallBlock;
    };

/** What the reader needs besides the events: who answered, the attempt's watchdog, the event sink. */
export interface AnthropicStreamContext {
  provider: string;
  model: string;
  watchdog: RequestWatchdog;
  onEvent: ((event: StreamEvent) => void) | undefined;
}

/**
 * Consumes one Messages event stream into the final assistant message, emitting deltas on the way.
 * Reading stops at message_stop (some servers keep the connection open after it); a stream that
 * ends without one was cut off (a network failure, retried); a `model_context_window_exceeded`
 * stop is an overflow, not an answer. Unknown event and delta types are ignored; a known event
 * missing a field it must carry fails the request (`checkAnthropicEvent`).
 */
const PROGRESS_EVENTS = new Set<string>([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
]);

export async function readAnthropicStream(
  events: AsyncIterable<RawMessageStreamEvent>,
  context: AnthropicStreamContext,
): Promise<AssistantMessage> {
  const blocks = new Map<number, PartialBlock>();
  let figures: AnthropicUsageFigures = {};
  let stopReason: string | null | undefined;
  let stopped = false;
  for await (const raw of events) {
    const event = checkAnthropicEvent(raw, context.provider);
    // `ping` and event types this reader does not know are keepalives, not progress.
    if (PROGRESS_EVENTS.has(event.type)) context.watchdog.progress();
    switch (event.type) {
      case "message_start":
        figures = mergeAnthropicUsage(figures, event.message.usage);
        break;
      case "content_block_start":
        startBlock(blocks, event, context);
        break;
      case "content_block_delta":
        applyDelta(blocks.get(event.index) ?? implicitBlock(blocks, event), event.delta, context);
        break;
      case "content_block_stop":
        finishBlock(blocks.get(event.index), context);
        break;
      case "message_delta":
        stopReason = event.delta.stop_reason ?? stopReason;
        figures = mergeAnthropicUsage(figures, event.usage);
        break;
      case "message_stop":
        stopped = true;
        break;
    }
    if (stopped) break;
  }
  if (!stopped) {
    if (context.watchdog.signal.aborted) throw new Error("stream aborted");
    throw networkError(
      context.provider,
      new Error("the stream ended before message_stop"),
      "truncated stream",
    );
  }
  if (stopReason === "model_context_window_exceeded") {
    throw new PantoError(
      "context_overflow",
      `${context.provider}: stop_reason model_context_window_exceeded`,
      {
        provider: context.provider,
      },
    );
  }
  for (const block of blocks.values()) finishBlock(block, context);
  const usage = normalizeAnthropicUsage(figures);
  return {
    role: "assistant",
    content: finalContent(blocks),
    provider: context.provider,
    api: "anthropic-messages",
    model: context.model,
    ...optional("usage", usage),
    stopReason: mapAnthropicStopReason(stopReason),
  };
}

function startBlock(
  blocks: Map<number, PartialBlock>,
  event: Extract<RawMessageStreamEvent, { type: "content_block_start" }>,
  context: AnthropicStreamContext,
): void {
  const block = event.content_block;
  switch (block.type) {
    case "text":
      blocks.set(event.index, { type: "text", text: block.text });
      if (block.text !== "") context.onEvent?.({ type: "text-delta", text: block.text });
      break;
    case "thinking":
      blocks.set(event.index, { type: "thinking", text: block.thinking, signature: block.signature });
      if (block.thinking !== "") context.onEvent?.({ type: "thinking-delta", text: block.thinking });
      break;
    case "redacted_thinking":
      blocks.set(event.index, { type: "redacted", data: block.data });
      break;
    case "tool_use":
      blocks.set(event.index, {
        type: "tool",
        id: block.id,
        name: block.name,
        json: "",
        initial: isRecord(block.input) ? block.input : {},
      });
      context.onEvent?.({ type: "tool-call-start", id: block.id, name: block.name });
      break;
    default:
      // Server tools and their results are not requested by panto.
      break;
  }
}

/**
 * A block some minimal servers never announce with content_block_start: text and thinking deltas
 * still make sense on their own; a tool call's fragments without its id and name do not.
 */
function implicitBlock(
  blocks: Map<number, PartialBlock>,
  event: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>,
): PartialBlock | undefined {
  const type = event.delta.type;
  const block: PartialBlock | undefined =
    type === "text_delta"
      ? { type: "text", text: "" }
      : type === "thinking_delta" || type === "signature_delta"
        ? { type: "thinking", text: "", signature: "" }
        : undefined;
  if (block !== undefined) blocks.set(event.index, block);
  return block;
}

function applyDelta(
  block: PartialBlock | undefined,
  delta: Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"],
  context: AnthropicStreamContext,
): void {
  if (delta.type === "text_delta" && block?.type === "text") {
    block.text += delta.text;
    context.onEvent?.({ type: "text-delta", text: delta.text });
  } else if (delta.type === "thinking_delta" && block?.type === "thinking") {
    block.text += delta.thinking;
    context.onEvent?.({ type: "thinking-delta", text: delta.thinking });
  } else if (delta.type === "signature_delta" && block?.type === "thinking") {
    block.signature += delta.signature;
  } else if (delta.type === "input_json_delta" && block?.type === "tool") {
    block.json += delta.partial_json;
  }
}

function finishBlock(block: PartialBlock | undefined, context: AnthropicStreamContext): void {
  if (block?.type !== "tool" || block.call !== undefined) return;
  block.call = {
    type: "tool-call",
    id: block.id,
    name: block.name,
    arguments: block.json.trim() === "" ? block.initial : parseToolArguments(block.json),
  };
  context.onEvent?.({ type: "tool-call-end", call: block.call });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function finalContent(blocks: Map<number, PartialBlock>): AssistantMessage["content"] {
  const ordered = [...blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => block);
  return ordered.flatMap(finalBlock);
}

function finalBlock(block: PartialBlock): Array<TextBlock | ThinkingBlock | ToolCallBlock> {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : [{ type: "text", text: block.text }];
    case "thinking":
      return block.text === "" && block.signature === ""
        ? []
        : [
            {
              type: "thinking",
              text: block.text,
              ...(block.signature === "" ? {} : { signature: block.signature }),
            },
          ];
    case "redacted":
      return [{ type: "thinking", text: "", redacted: block.data }];
    case "tool":
      return block.call === undefined ? [] : [block.call];
  }
}
