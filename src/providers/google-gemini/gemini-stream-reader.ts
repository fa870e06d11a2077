import type { GenerateContentResponseUsageMetadata, Part } from "@google/genai";
import type {
  AssistantMessage,
  StopReason,
  StreamEvent,
  TextBlock,
  ThinkingBlock,
  ToolCallBlock,
} from "../../core/index.js";
import { optional } from "../../core/index.js";
import { checkGeminiChunk } from "./check-gemini-chunk.js";
import type { GeminiChunk } from "./gemini-chunk.js";
import { mapGeminiUsage } from "./map-gemini-usage.js";
import { syntheticAnswerTag, syntheticCallId } from "./synthetic-call-id.js";

type Block = TextBlock | ThinkingBlock | ToolCallBlock;

const CONTENT_FILTER_REASONS = new Set([
  "SAFETY",
  "RECITATION",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "SPII",
  "IMAGE_SAFETY",
  "IMAGE_PROHIBITED_CONTENT",
  "IMAGE_RECITATION",
]);

/**
 * Folds streamed Gemini chunks into one assistant message. Thought parts become thinking, text
 * parts text, function calls tool calls (complete in one chunk). A `thoughtSignature` on a text or
 * function-call part is kept as a text-less thinking block right before that block, so it can be
 * put back on the same part later. Gemini has no terminal event: the chunk with a finishReason
 * (or a blocked prompt) ends the answer, and a stream that ends before one is truncated.
 */
export class GeminiStreamReader {
  private readonly blocks: Block[] = [];
  private usage: GenerateContentResponseUsageMetadata | undefined;
  private finishReason: string | undefined;
  private blocked = false;
  private calls = 0;
  /** Drawn once per answer, for the ids of the calls Gemini sends without one. */
  private readonly answerTag = syntheticAnswerTag();

  constructor(
    private readonly meta: { provider: string; model: string },
    private readonly onEvent: ((event: StreamEvent) => void) | undefined,
  ) {}

  handle(raw: GeminiChunk): void {
    const chunk = checkGeminiChunk(raw, this.meta.provider);
    if (chunk.usageMetadata !== undefined) this.usage = chunk.usageMetadata;
    if (chunk.promptFeedback?.blockReason !== undefined) this.blocked = true;
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) this.part(part);
    if (candidate?.finishReason !== undefined) this.finishReason = candidate.finishReason;
  }

  /** The finished message, or undefined when no chunk ended the answer. */
  result(): AssistantMessage | undefined {
    if (this.finishReason === undefined && !this.blocked) return undefined;
    const usage = mapGeminiUsage(this.usage);
    const content = this.blocks.filter(isWorthKeeping);
    return {
      role: "assistant",
      content,
      provider: this.meta.provider,
      api: "google-gemini",
      // The configured name, not the reported version: sizing compares models across messages.
      model: this.meta.model,
      ...optional("usage", usage),
      stopReason: this.stopReason(content),
    };
  }

  private part(part: Part): void {
    if (part.thought === true) {
      this.thought(part.text ?? "", part.thoughtSignature);
      return;
    }
    if (part.functionCall === undefined && part.text === undefined) return;
    if (part.thoughtSignature !== undefined) {
      this.blocks.push({ type: "thinking", text: "", signature: part.thoughtSignature });
    }
    if (part.functionCall !== undefined) {
      const name = part.functionCall.name ?? "";
      const call: ToolCallBlock = {
        type: "tool-call",
        id: part.functionCall.id || syntheticCallId(this.answerTag, this.calls, name),
        name,
        arguments: part.functionCall.args ?? {},
      };
      this.calls++;
      this.blocks.push(call);
      this.onEvent?.({ type: "tool-call-start", id: call.id, name: call.name });
      this.onEvent?.({ type: "tool-call-end", call });
      return;
    }
    const text = part.text ?? "";
    const last = this.blocks[this.blocks.length - 1];
    if (last?.type === "text" && part.thoughtSignature === undefined) last.text += text;
    else this.blocks.push({ type: "text", text });
    if (text !== "") this.onEvent?.({ type: "text-delta", text });
  }

  private thought(text: string, signature: string | undefined): void {
    const last = this.blocks[this.blocks.length - 1];
    const open =
      last?.type === "thinking" && last.text !== "" && last.signature === undefined ? last : undefined;
    const block: ThinkingBlock = open ?? { type: "thinking", text: "" };
    if (open === undefined) this.blocks.push(block);
    block.text += text;
    if (signature !== undefined) block.signature = signature;
    if (text !== "") this.onEvent?.({ type: "thinking-delta", text });
  }

  private stopReason(content: Block[]): StopReason {
    if (this.blocked || CONTENT_FILTER_REASONS.has(this.finishReason ?? "")) return "content-filter";
    if (this.finishReason === "MAX_TOKENS") return "length";
    return content.some((block) => block.type === "tool-call") ? "tool-use" : "stop";
  }
}

/** Empty text, and thinking with neither text nor a signature to echo, carry nothing. */
function isWorthKeeping(block: Block): boolean {
  if (block.type === "text") return block.text !== "";
  if (block.type === "thinking") return block.text !== "" || block.signature !== undefined;
  return true;
}
