import type {
  ResponseOutputItem,
  ResponseStreamEvent,
  Response as ResponsesResponse,
} from "openai/resources/responses/responses";
import {
  type AssistantMessage,
  optional,
  PantoError,
  type StopReason,
  type StreamEvent,
  type TextBlock,
  type ThinkingBlock,
  type ToolCallBlock,
} from "../../core/index.js";
import { providerErrorFromResponse } from "../provider-error.js";
import { parseToolArguments } from "../shared/parse-tool-arguments.js";
import { checkResponsesEvent } from "./check-responses-event.js";
import { mapResponsesUsage } from "./map-responses-usage.js";

type Slot =
  | { kind: "text"; block: TextBlock }
  | { kind: "thinking"; block: ThinkingBlock; summaryIndex: number }
  | { kind: "call"; block: ToolCallBlock; rawArguments: string; ended: boolean };

/**
 * Folds Responses stream events into one assistant message. Output items are kept in their
 * `output_index` order (reasoning before the output it led to, which is also the order they must
 * be echoed in). Failure events inside the stream throw a classified PantoError; a stream without
 * a terminal event leaves `result()` undefined so the caller can call it truncated.
 */
export class ResponsesStreamReader {
  private readonly slots = new Map<number, Slot>();
  private final: ResponsesResponse | undefined;
  private terminal: "completed" | "incomplete" | undefined;

  constructor(
    private readonly meta: { provider: string; model: string },
    private readonly onEvent: ((event: StreamEvent) => void) | undefined,
  ) {}

  handle(raw: ResponseStreamEvent): void {
    const event = checkResponsesEvent(raw, this.meta.provider);
    switch (event.type) {
      case "response.output_item.added":
        this.itemAdded(event.output_index, event.item);
        return;
      case "response.output_text.delta":
      case "response.refusal.delta":
        this.textDelta(event.output_index, event.delta);
        return;
      case "response.reasoning_summary_text.delta":
        this.thinkingDelta(event.output_index, event.delta, event.summary_index);
        return;
      case "response.reasoning_text.delta":
        this.thinkingDelta(event.output_index, event.delta, event.content_index);
        return;
      case "response.function_call_arguments.delta":
        this.argumentsDelta(event.output_index, event.delta);
        return;
      case "response.function_call_arguments.done":
        this.argumentsDone(event.output_index, event.arguments);
        return;
      case "response.output_item.done":
        this.itemDone(event.output_index, event.item);
        return;
      case "response.output_text.done":
        this.textDone(event.output_index, event.text);
        return;
      case "response.completed":
      case "response.incomplete":
        this.final = event.response;
        this.terminal = event.type === "response.completed" ? "completed" : "incomplete";
        return;
      case "response.failed":
        throw this.streamError(event.response.error ?? event.response);
      case "error":
        throw this.streamError(event);
      default:
        return;
    }
  }

  /** Whether a terminal event (response.completed or .incomplete) arrived. */
  get finished(): boolean {
    return this.terminal !== undefined;
  }

  /** The finished message, or undefined when the stream ended before a terminal event. */
  result(): AssistantMessage | undefined {
    if (this.terminal === undefined || this.final === undefined) return undefined;
    this.adoptFinalOutput(this.final);
    for (const slot of this.slots.values()) if (slot.kind === "call") this.endCall(slot);
    const content = [...this.slots.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, slot]) => slot.block)
      .filter(isWorthKeeping);
    const usage = mapResponsesUsage(this.final.usage);
    return {
      role: "assistant",
      content,
      provider: this.meta.provider,
      api: "openai-responses",
      // The configured name, not the dated snapshot: sizing compares models across messages.
      model: this.meta.model,
      ...optional("usage", usage),
      stopReason: this.stopReason(content),
    };
  }

  private itemAdded(index: number, item: ResponseOutputItem): void {
    if (item.type === "function_call") {
      const block: ToolCallBlock = { type: "tool-call", id: item.call_id, name: item.name, arguments: {} };
      this.slots.set(index, { kind: "call", block, rawArguments: item.arguments ?? "", ended: false });
      this.onEvent?.({ type: "tool-call-start", id: block.id, name: block.name });
    } else if (item.type === "reasoning") {
      this.slots.set(index, {
        kind: "thinking",
        block: { type: "thinking", text: "", signature: item.id },
        summaryIndex: 0,
      });
    } else if (item.type === "message") {
      this.slots.set(index, { kind: "text", block: { type: "text", text: "" } });
    }
  }

  private textDelta(index: number, delta: string): void {
    const slot = this.slots.get(index) ?? { kind: "text", block: { type: "text", text: "" } };
    if (slot.kind !== "text") return;
    this.slots.set(index, slot);
    slot.block.text += delta;
    this.onEvent?.({ type: "text-delta", text: delta });
  }

  /** The whole text of a part, for servers that send it here without any deltas before. */
  private textDone(index: number, text: string | undefined): void {
    const slot = this.slots.get(index);
    if (typeof text !== "string" || text === "" || (slot !== undefined && slot.kind !== "text")) return;
    if (slot !== undefined && slot.block.text !== "") return;
    this.textDelta(index, text);
  }

  private thinkingDelta(index: number, delta: string, partIndex: number): void {
    const slot = this.slots.get(index) ?? {
      kind: "thinking",
      block: { type: "thinking", text: "" },
      summaryIndex: 0,
    };
    if (slot.kind !== "thinking") return;
    this.slots.set(index, slot);
    // Summary parts are separate paragraphs; keep them apart in the joined text.
    const separator = partIndex !== slot.summaryIndex && slot.block.text !== "" ? "\n\n" : "";
    slot.summaryIndex = partIndex;
    slot.block.text += separator + delta;
    this.onEvent?.({ type: "thinking-delta", text: separator + delta });
  }

  private argumentsDelta(index: number, delta: string): void {
    const slot = this.slots.get(index);
    if (slot?.kind === "call") slot.rawArguments += delta;
  }

  /** The whole arguments: authoritative, and all there is from servers that stream no deltas. */
  private argumentsDone(index: number, rawArguments: string | undefined): void {
    const slot = this.slots.get(index);
    if (slot?.kind === "call" && !slot.ended && typeof rawArguments === "string")
      slot.rawArguments = rawArguments;
  }

  /** The finished item is authoritative: it carries the full arguments and the encrypted reasoning. */
  private itemDone(index: number, item: ResponseOutputItem): void {
    const slot = this.slots.get(index);
    if (item.type === "function_call") {
      if (slot?.kind !== "call") this.itemAdded(index, item);
      const call = this.slots.get(index);
      if (call?.kind !== "call") return;
      call.rawArguments = item.arguments ?? call.rawArguments;
      this.endCall(call);
    } else if (item.type === "reasoning") {
      const summary = (item.summary ?? []).map((part) => part.text).join("\n\n");
      const block: ThinkingBlock = {
        type: "thinking",
        text: summary !== "" ? summary : slot?.kind === "thinking" ? slot.block.text : "",
        signature: item.id,
        ...(typeof item.encrypted_content === "string" ? { redacted: item.encrypted_content } : {}),
      };
      this.slots.set(index, { kind: "thinking", block, summaryIndex: 0 });
    } else if (item.type === "message") {
      const text = (item.content ?? []).map(partText).join("");
      this.slots.set(index, { kind: "text", block: { type: "text", text } });
    }
  }

  /**
   * A server that streamed no output (only the terminal event, or one JSON response) has it all in
   * the final response: read its items as if each had just finished, and show their text.
   */
  private adoptFinalOutput(final: ResponsesResponse): void {
    const streamed = [...this.slots.values()].some((slot) => isWorthKeeping(slot.block));
    for (const [index, item] of (final.output ?? []).entries()) {
      if (streamed) this.completeCall(index, item);
      else this.adoptItem(index, item);
    }
  }

  private adoptItem(index: number, item: ResponseOutputItem): void {
    this.itemDone(index, item);
    const slot = this.slots.get(index);
    if (slot?.kind === "text" && slot.block.text !== "") {
      this.onEvent?.({ type: "text-delta", text: slot.block.text });
    } else if (slot?.kind === "thinking" && slot.block.text !== "") {
      this.onEvent?.({ type: "thinking-delta", text: slot.block.text });
    }
  }

  /** A call announced by output_item.added whose arguments never streamed: the final item has them. */
  private completeCall(index: number, item: ResponseOutputItem): void {
    const slot = this.slots.get(index);
    if (item.type !== "function_call" || slot?.kind !== "call" || slot.ended) return;
    if (slot.block.id === item.call_id && slot.rawArguments === "") slot.rawArguments = item.arguments ?? "";
  }

  private endCall(slot: Extract<Slot, { kind: "call" }>): void {
    if (slot.ended) return;
    slot.ended = true;
    slot.block.arguments = parseToolArguments(slot.rawArguments);
    this.onEvent?.({ type: "tool-call-end", call: slot.block });
  }

  private stopReason(content: AssistantMessage["content"]): StopReason {
    if (this.terminal === "incomplete") {
      const reason: string = this.final?.incomplete_details?.reason ?? "";
      if (reason === "content_filter") return "content-filter";
      if (/context/i.test(reason)) {
        throw new PantoError("context_overflow", `${this.meta.provider}: response incomplete: ${reason}`, {
          provider: this.meta.provider,
        });
      }
      return "length";
    }
    return content.some((block) => block.type === "tool-call") ? "tool-use" : "stop";
  }

  /** Errors carried by the stream have no HTTP status; the payload alone says what happened. */
  private streamError(payload: unknown): PantoError {
    return providerErrorFromResponse({ body: JSON.stringify(payload), provider: this.meta.provider });
  }
}

/** A message part's text: `output_text` (or the `text` some compatible servers write), or a refusal. */
function partText(part: { type: string; text?: string; refusal?: string }): string {
  if (typeof part.text === "string") return part.text;
  return typeof part.refusal === "string" ? part.refusal : "";
}

/** Empty text and reasoning that can be neither shown nor echoed carry nothing worth keeping. */
function isWorthKeeping(block: AssistantMessage["content"][number]): boolean {
  if (block.type === "text") return block.text !== "";
  if (block.type === "thinking") return block.text !== "" || block.redacted !== undefined;
  return true;
}
