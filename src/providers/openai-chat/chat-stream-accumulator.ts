import { randomUUID } from "node:crypto";
import {
  type AssistantMessage,
  optional,
  PantoError,
  type StreamEvent,
  type ToolCallBlock,
} from "../../core/index.js";
import { parseToolArguments } from "../shared/index.js";
import type { ChatChunk, ChatToolCallDelta } from "./chat-chunk.js";
import { checkChatChunk } from "./check-chat-chunk.js";
import { mapOpenAIChatFinishReason } from "./map-openai-chat-finish-reason.js";
import { normalizeOpenAIChatUsage, type RawOpenAIChatUsage } from "./normalize-openai-chat-usage.js";
import { type ChatContentPart, splitChatContent } from "./split-chat-content.js";

interface PartialToolCall {
  id: string;
  name: string;
  json: string;
  started: boolean;
}

/**
 * Folds chat chunks into one assistant message, emitting deltas as they come. Tool calls arrive
 * by index (id and name first, argument fragments after); several indexes make parallel calls.
 */
export class ChatStreamAccumulator {
  private text = "";
  private thinking = "";
  private readonly calls = new Map<number, PartialToolCall>();
  /** The index of the call the last fragment extended: where an index-less fragment belongs. */
  private lastCallIndex: number | undefined;
  private finishReason: string | null | undefined;
  private rawUsage: RawOpenAIChatUsage | null | undefined;
  private doneSeen = false;

  constructor(
    private readonly target: { provider: string; model: string },
    private readonly onEvent: ((event: StreamEvent) => void) | undefined,
  ) {}

  /**
   * Whether the answer is complete: a finish_reason arrived, or (minimal servers send none) the
   * stream said [DONE] after some output. Anything else was cut off.
   */
  get finished(): boolean {
    if (this.finishReason !== undefined && this.finishReason !== null) return true;
    return this.doneSeen && (this.text !== "" || this.thinking !== "" || this.calls.size > 0);
  }

  /** The stream's `data: [DONE]` terminator arrived. */
  markDone(): void {
    this.doneSeen = true;
  }

  apply(raw: ChatChunk): void {
    const chunk = checkChatChunk(raw, this.target.provider);
    if (chunk.usage !== undefined && chunk.usage !== null) this.rawUsage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta ?? choice.message;
      const content = splitChatContent(delta?.content);
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      this.addThinking(content.thinking + (typeof reasoning === "string" ? reasoning : ""));
      this.addText(content.text);
      for (const call of delta?.tool_calls ?? []) this.applyToolCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
  }

  private addText(text: string): void {
    if (text === "") return;
    this.text += text;
    this.onEvent?.({ type: "text-delta", text });
  }

  private addThinking(text: string): void {
    if (text === "") return;
    this.thinking += text;
    this.onEvent?.({ type: "thinking-delta", text });
  }

  /** The final message; throws the overflow a `model_context_window_exceeded` finish stands for. */
  finish(): AssistantMessage {
    if (this.finishReason === "model_context_window_exceeded") {
      throw new PantoError(
        "context_overflow",
        `${this.target.provider}: finish_reason model_context_window_exceeded`,
        {
          provider: this.target.provider,
        },
      );
    }
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => this.endToolCall(call));
    const usage = normalizeOpenAIChatUsage(this.rawUsage);
    return {
      role: "assistant",
      content: [
        ...(this.thinking === "" ? [] : [{ type: "thinking" as const, text: this.thinking }]),
        ...(this.text === "" ? [] : [{ type: "text" as const, text: this.text }]),
        ...toolCalls,
      ],
      provider: this.target.provider,
      api: "openai-chat",
      model: this.target.model,
      ...optional("usage", usage),
      stopReason: mapOpenAIChatFinishReason(this.finishReason, toolCalls.length > 0),
    };
  }

  private applyToolCall(delta: ChatToolCallDelta): void {
    const index = this.callIndexOf(delta);
    this.lastCallIndex = index;
    let call = this.calls.get(index);
    if (call === undefined) {
      call = { id: "", name: "", json: "", started: false };
      this.calls.set(index, call);
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name && call.name === "") call.name = delta.function.name;
    const fragment = delta.function?.arguments;
    call.json += typeof fragment === "string" ? fragment : fragment ? JSON.stringify(fragment) : "";
    if (!call.started && call.name !== "") {
      // A few local servers send no call ids; results still need one to refer to.
      if (call.id === "") call.id = `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      call.started = true;
      this.onEvent?.({ type: "tool-call-start", id: call.id, name: call.name });
    }
  }

  /**
   * Which call a fragment extends. Some servers send no `index`: then a fragment with a new id, or
   * a name while the open call already has one, starts the next call; any other extends the open one.
   */
  private callIndexOf(delta: ChatToolCallDelta): number {
    if (typeof delta.index === "number") return delta.index;
    const last = this.lastCallIndex;
    const open = last === undefined ? undefined : this.calls.get(last);
    if (last === undefined || open === undefined) return this.nextCallIndex();
    const id = delta.id ?? "";
    const name = delta.function?.name ?? "";
    const startsNew = id !== "" ? id !== open.id : name !== "" && open.name !== "";
    return startsNew ? this.nextCallIndex() : last;
  }

  private nextCallIndex(): number {
    return this.calls.size === 0 ? 0 : Math.max(...this.calls.keys()) + 1;
  }

  private endToolCall(call: PartialToolCall): ToolCallBlock {
    const block: ToolCallBlock = {
      type: "tool-call",
      id: call.id,
      name: call.name,
      arguments: parseToolArguments(call.json),
    };
    this.onEvent?.({ type: "tool-call-end", call: block });
    return block;
  }
}

/** A non-streamed completion, for servers that ignore `stream: true` and answer with JSON. */
export interface ChatCompletionBody {
  choices?: Array<{
    message?: {
      content?: string | ChatContentPart[] | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{
        id?: string;
        function?: { name?: string; arguments?: string | Record<string, unknown> };
      }> | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: RawOpenAIChatUsage | null;
}

/** The same completion as the single chunk that would have streamed it. */
export function completionAsChunk(body: ChatCompletionBody): ChatChunk {
  return {
    choices: (body.choices ?? []).map((choice) => ({
      delta: {
        content: choice.message?.content ?? null,
        reasoning_content: choice.message?.reasoning_content ?? choice.message?.reasoning ?? null,
        tool_calls: (choice.message?.tool_calls ?? []).map((call, index) => ({ index, ...call })),
      },
      finish_reason: choice.finish_reason ?? null,
    })),
    usage: body.usage ?? null,
  };
}
