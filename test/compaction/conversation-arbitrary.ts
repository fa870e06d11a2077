import fc from "fast-check";
import { estimateMessageTokens } from "../../src/compaction/index.js";
import type { AssistantMessage, ImageBlock, Message, ToolResultMessage } from "../../src/core/index.js";
import { TOKEN_SAMPLES } from "./token-samples.js";

/**
 * Generated conversations for the property tests. All text is made of samples whose real token
 * counts are published (token-samples.ts), joined by newlines, so every message has a known true
 * text size: the sum of its samples' counts plus one token per newline.
 */

/** A text and its true token count (upper bound over the published tokenisers). */
export interface SizedText {
  text: string;
  trueTokens: number;
}

export type UsageMode = "coherent" | "absent" | "mixed";

export interface GeneratedConversation {
  messages: Message[];
  /** True text tokens per message, aligned with `messages`. */
  trueTextTokens: number[];
}

const sizedText: fc.Arbitrary<SizedText> = fc
  .array(fc.integer({ min: 0, max: TOKEN_SAMPLES.length - 1 }), { minLength: 1, maxLength: 4 })
  .map((indexes) => {
    const samples = indexes.map((index) => TOKEN_SAMPLES[index] as (typeof TOKEN_SAMPLES)[number]);
    return {
      text: samples.map((sample) => sample.text).join("\n"),
      trueTokens: samples.reduce((total, sample) => total + sample.reference, 0) + samples.length - 1,
    };
  });

const pngImage: ImageBlock = { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" };

const callSpec = fc.record({
  name: fc.constantFrom("read_file", "bash", "edit_file", "grep"),
  argument: sizedText,
  result: sizedText,
  isError: fc.boolean(),
  image: fc.boolean(),
});

const stepSpec = fc.record({
  thinking: fc.option(sizedText, { nil: undefined }),
  text: fc.option(sizedText, { nil: undefined }),
  calls: fc.array(callSpec, { minLength: 1, maxLength: 3 }),
});

const turnSpec = fc.record({
  prompt: sizedText,
  image: fc.boolean(),
  steps: fc.array(stepSpec, { minLength: 0, maxLength: 6 }),
  /** A turn may end on tool results (the user interrupted the loop). */
  answer: fc.option(fc.record({ thinking: fc.boolean(), text: sizedText }), { nil: undefined, freq: 5 }),
});

export const conversationSpec = fc.record({
  leadingAssistant: fc.boolean(),
  turns: fc.array(turnSpec, { minLength: 1, maxLength: 8 }),
});

export type ConversationSpec = typeof conversationSpec extends fc.Arbitrary<infer T> ? T : never;

/** Builds messages from a spec. `idPrefix` keeps tool call ids unique across several specs. */
export function buildConversation(spec: ConversationSpec, idPrefix = "c"): GeneratedConversation {
  const messages: Message[] = [];
  const trueTextTokens: number[] = [];
  let nextId = 0;
  const push = (message: Message, tokens: number) => {
    messages.push(message);
    trueTextTokens.push(tokens);
  };
  if (spec.leadingAssistant) push(assistantMessage([{ type: "text", text: "Resuming." }]), 3);
  for (const turn of spec.turns) {
    const content: Array<{ type: "text"; text: string } | ImageBlock> = [
      { type: "text", text: turn.prompt.text },
    ];
    if (turn.image) content.push(pngImage);
    push({ role: "user", content }, turn.prompt.trueTokens);
    for (const step of turn.steps) {
      const blocks: AssistantMessage["content"] = [];
      let tokens = 0;
      if (step.thinking) {
        blocks.push({ type: "thinking", text: step.thinking.text, signature: "sig" });
        tokens += step.thinking.trueTokens;
      }
      if (step.text) {
        blocks.push({ type: "text", text: step.text.text });
        tokens += step.text.trueTokens;
      }
      const ids = step.calls.map(() => `${idPrefix}${nextId++}`);
      step.calls.forEach((spec, index) => {
        blocks.push({
          type: "tool-call",
          id: ids[index] as string,
          name: spec.name,
          arguments: { input: spec.argument.text },
        });
      });
      push(assistantMessage(blocks), tokens);
      const result: ToolResultMessage = {
        role: "tool",
        content: step.calls.map((spec, index) => ({
          type: "tool-result",
          toolCallId: ids[index] as string,
          toolName: spec.name,
          isError: spec.isError,
          content: spec.image
            ? [{ type: "text", text: spec.result.text }, pngImage]
            : [{ type: "text", text: spec.result.text }],
        })),
      };
      push(
        result,
        step.calls.reduce((total, spec) => total + spec.result.trueTokens, 0),
      );
    }
    if (turn.answer) {
      const blocks: AssistantMessage["content"] = [];
      if (turn.answer.thinking)
        blocks.push({ type: "thinking", text: "Checking the result.", signature: "sig" });
      blocks.push({ type: "text", text: turn.answer.text.text });
      push(assistantMessage(blocks), turn.answer.text.trueTokens + (turn.answer.thinking ? 5 : 0));
    }
  }
  return { messages, trueTextTokens };
}

function assistantMessage(content: AssistantMessage["content"]): AssistantMessage {
  return {
    role: "assistant",
    provider: "anthropic",
    api: "anthropic-messages",
    model: "claude-sonnet-4-5",
    content,
    stopReason: content.some((block) => block.type === "tool-call") ? "tool-use" : "stop",
  };
}

/** What the simulated provider counts for a message: a fixed fraction of the local estimate. */
export function simulatedTokens(message: Message): number {
  return Math.ceil(estimateMessageTokens(message) * 0.6);
}

/**
 * Gives every assistant message from `from` on the usage a provider would report when the request
 * is `prefixTokens` (system prompt, summary) plus the messages before it, each counted by
 * {@link simulatedTokens}. `drop` says which assistant messages report no usage.
 */
export function assignUsage(
  messages: Message[],
  prefixTokens: number,
  from = 0,
  drop: (index: number) => boolean = () => false,
): void {
  let prompt = prefixTokens;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message;
    if (index >= from && message.role === "assistant") {
      delete message.usage;
      const resent = simulatedTokens(message);
      if (!drop(index))
        message.usage = { promptTokens: prompt, outputTokens: resent + 7, resentOutputTokens: resent };
    }
    prompt += simulatedTokens(message);
  }
}
