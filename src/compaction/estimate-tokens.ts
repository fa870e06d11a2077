import type { AssistantMessage, ImageBlock, Message, TextBlock, ToolResultMessage } from "../core/index.js";

/**
 * Charge for one image. Anthropic scales images to at most ~1.15 megapixels (about 1,600 tokens);
 * OpenAI and Gemini charge less for the same picture, so this is the high end.
 */
export const IMAGE_TOKEN_ESTIMATE = 1600;

/** Framing every provider adds around a message (role markers, separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;

/** Framing around one tool call or tool result (ids, names, wrappers). */
const TOOL_BLOCK_OVERHEAD_TOKENS = 8;

/**
 * A cheap local token estimate that errs large on every kind of text a coding session holds.
 *
 * Plain `chars / 4` is right for English prose only: code, JSON and random identifiers pack two to
 * three characters into a token, and CJK text costs one or more tokens per character. So each
 * character class is charged on its own:
 * - a run of ASCII letters costs one token per three letters, rounded up (a camelCase hump starts a
 *   new run, as BPE vocabularies split there);
 * - every digit, ASCII punctuation mark and newline costs a token (tokenisers that split digits one
 *   by one, such as Llama's and Gemini's, exist);
 * - the first space or tab after non-space text is free (it joins the next word), further ones cost
 *   a quarter each; a space before a digit is charged a whole token (cl100k keeps it apart);
 * - a character outside ASCII costs by its UTF-8 length: 1 for two bytes (accented Latin,
 *   Cyrillic, Greek), 2 for three (CJK, kana, Hangul, symbols: published counts run from 1 to
 *   1.56 tokens a character, and tokenisers we cannot measure offline may spend more), 3 for four
 *   (emoji).
 *
 * Measured against published tokeniser counts in `test/compaction/token-samples.ts`.
 */
export function estimateTokens(text: string): number {
  let total = 0;
  let letterRun = 0;
  // -1: start of text, where a leading space costs a quarter as after a newline.
  let previous = -1;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isAsciiLetter(code)) {
      if (letterRun > 0 && isUpper(code) && isLower(previous)) {
        total += Math.ceil(letterRun / 3);
        letterRun = 0;
      }
      letterRun++;
      previous = code;
      continue;
    }
    if (letterRun > 0) {
      total += Math.ceil(letterRun / 3);
      letterRun = 0;
    }
    total += nonLetterCost(code, previous);
    // A low surrogate follows its high surrogate and was charged with it.
    if (code >= 0xd800 && code <= 0xdbff) index++;
    previous = code;
  }
  if (letterRun > 0) total += Math.ceil(letterRun / 3);
  return Math.ceil(total);
}

function nonLetterCost(code: number, previous: number): number {
  if (code === 0x20 || code === 0x09 || code === 0x0d) {
    return isBlank(previous) || previous === -1 ? 0.25 : 0;
  }
  if (code >= 0x30 && code <= 0x39) return previous === 0x20 ? 2 : 1;
  if (code < 0x80) return 1;
  if (code < 0x800) return 1;
  if (code >= 0xd800 && code <= 0xdbff) return 3;
  return 2;
}

function isAsciiLetter(code: number): boolean {
  return isUpper(code) || isLower(code);
}

function isUpper(code: number): boolean {
  return code >= 0x41 && code <= 0x5a;
}

function isLower(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * Local estimate of what one message costs as model input: the text of every block, tool call
 * names with their JSON arguments, tool results, readable and redacted thinking, a fixed charge per
 * image, and a little framing per message and per tool block.
 */
export function estimateMessageTokens(message: Message): number {
  return estimateMessageBreakdown(message).tokens;
}

/** {@link estimateMessageTokens} with the parts that vary most between providers told apart. */
export interface MessageEstimate {
  /** The whole estimate. */
  tokens: number;
  /** Of which fixed image charges. */
  imageTokens: number;
  /** Of which thinking (not re-sent in later requests by most providers). */
  thinkingTokens: number;
}

export function estimateMessageBreakdown(message: Message): MessageEstimate {
  const estimate = { tokens: MESSAGE_OVERHEAD_TOKENS, imageTokens: 0, thinkingTokens: 0 };
  if (message.role === "user") addParts(estimate, message.content);
  else if (message.role === "assistant") addAssistantContent(estimate, message);
  else addToolResults(estimate, message);
  return estimate;
}

function addParts(estimate: MessageEstimate, parts: ReadonlyArray<TextBlock | ImageBlock>): void {
  for (const part of parts) {
    if (part.type === "text") {
      estimate.tokens += estimateTokens(part.text);
    } else {
      estimate.tokens += IMAGE_TOKEN_ESTIMATE;
      estimate.imageTokens += IMAGE_TOKEN_ESTIMATE;
    }
  }
}

function addAssistantContent(estimate: MessageEstimate, message: AssistantMessage): void {
  for (const block of message.content) {
    if (block.type === "text") {
      estimate.tokens += estimateTokens(block.text);
    } else if (block.type === "thinking") {
      const thinking = estimateTokens(block.text) + estimateTokens(block.redacted ?? "");
      estimate.tokens += thinking;
      estimate.thinkingTokens += thinking;
    } else {
      const args = JSON.stringify(block.arguments) ?? "";
      estimate.tokens += TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokens(block.name) + estimateTokens(args);
    }
  }
}

function addToolResults(estimate: MessageEstimate, message: ToolResultMessage): void {
  for (const block of message.content) {
    estimate.tokens += TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokens(block.toolName);
    addParts(estimate, block.content);
  }
}
