import { randomUUID } from "node:crypto";
import { type AssistantMessage, PantoError, type StreamEvent, type ToolCallBlock } from "../../core/index.js";
import { parseToolArguments } from "../shared/index.js";
import { mapOpenAIChatFinishReason } from "./map-openai-chat-finish-reason.js";
import { normalizeOpenAIChatUsage, type RawOpenAIChatUsage } from "./normalize-openai-chat-usage.js";

/** One streamed chunk as OpenAI and the compatible servers send it (their extra fields included). */
export interface ChatChunk {
  choices?: Array<{
    delta?: {
      content?: string | null;
      /** DeepSeek, vLLM, llama.cpp and others stream reasoning here... */
      reasoning_content?: string | null;
      /** ...and OpenRouter, Ollama and newer vLLM here. */
      reasoning?: string | null;
      tool_calls?: ChatToolCallDelta[] | null;
    } | null;
    finish_reason?: string | null;
  }> | null;
  usage?: RawOpenAIChatUsage | null;
}

/** One fragment of a streamed tool call; `index` says which parallel call it extends. */
export interface ChatToolCallDelta {
  index?: number;
  id?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

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
  private finishReason: string | null | undefined;
  private rawUsage: RawOpenAIChatUsage | null | undefined;

  constructor(
    private readonly target: { provider: string; model: string },
    private readonly onEvent: ((event: StreamEvent) => void) | undefined,
  ) {}

  /** Whether a finish_reason arrived: a stream without one was cut off. */
  get finished(): boolean {
    return this.finishReason !== undefined && this.finishReason !== null;
  }

  apply(chunk: ChatChunk): void {
    if (chunk.usage !== undefined && chunk.usage !== null) this.rawUsage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const delta = choice.delta;
      if (typeof delta?.content === "string" && delta.content !== "") {
        this.text += delta.content;
        this.onEvent?.({ type: "text-delta", text: delta.content });
      }
      const reasoning = delta?.reasoning_content ?? delta?.reasoning;
      if (typeof reasoning === "string" && reasoning !== "") {
        this.thinking += reasoning;
        this.onEvent?.({ type: "thinking-delta", text: reasoning });
      }
      for (const call of delta?.tool_calls ?? []) this.applyToolCall(call);
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
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
      ...(usage === undefined ? {} : { usage }),
      stopReason: mapOpenAIChatFinishReason(this.finishReason, toolCalls.length > 0),
    };
  }

  private applyToolCall(delta: ChatToolCallDelta): void {
    const index = delta.index ?? this.calls.size;
    let call = this.calls.get(index);
    if (call === undefined) {
      call = { id: "", name: "", json: "", started: false };
      this.calls.set(index, call);
    }
    if (delta.id) call.id = delta.id;
    if (delta.function?.name && call.name === "") call.name = delta.function.name;
    call.json += delta.function?.arguments ?? "";
    if (!call.started && call.name !== "") {
      // A few local servers send no call ids; results still need one to refer to.
      if (call.id === "") call.id = `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
      call.started = true;
      this.onEvent?.({ type: "tool-call-start", id: call.id, name: call.name });
    }
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
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }> | null;
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
