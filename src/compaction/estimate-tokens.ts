import type { AssistantMessage, Message, ToolResultMessage, UserMessage } from "../core/index.js";

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
 *   Cyrillic, Greek), 1.5 for three (CJK, kana, Hangul, symbols), 3 for four (emoji).
 *
 * Measured against published tokeniser counts in `test/compaction/estimate-tokens.test.ts`.
 */
export function estimateTokens(text: string): number {
  let total = 0;
  let letterRun = 0;
  let previous = 0;
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
    return isBlank(previous) || previous === 0 ? 0.25 : 0;
  }
  if (code >= 0x30 && code <= 0x39) return previous === 0x20 ? 2 : 1;
  if (code < 0x80) return 1;
  if (code < 0x800) return 1;
  if (code >= 0xd800 && code <= 0xdbff) return 3;
  return 1.5;
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
  switch (message.role) {
    case "user":
      return MESSAGE_OVERHEAD_TOKENS + userContentTokens(message);
    case "assistant":
      return MESSAGE_OVERHEAD_TOKENS + assistantContentTokens(message);
    case "tool":
      return MESSAGE_OVERHEAD_TOKENS + toolResultTokens(message);
  }
}

function userContentTokens(message: UserMessage): number {
  let total = 0;
  for (const block of message.content) {
    total += block.type === "text" ? estimateTokens(block.text) : IMAGE_TOKEN_ESTIMATE;
  }
  return total;
}

function assistantContentTokens(message: AssistantMessage): number {
  let total = 0;
  for (const block of message.content) {
    if (block.type === "text") total += estimateTokens(block.text);
    else if (block.type === "thinking")
      total += estimateTokens(block.text) + estimateRedacted(block.redacted);
    else {
      total += TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokens(block.name);
      total += estimateTokens(JSON.stringify(block.arguments) ?? "");
    }
  }
  return total;
}

function estimateRedacted(redacted: string | undefined): number {
  return redacted === undefined ? 0 : estimateTokens(redacted);
}

function toolResultTokens(message: ToolResultMessage): number {
  let total = 0;
  for (const block of message.content) {
    total += TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokens(block.toolName);
    for (const part of block.content) {
      total += part.type === "text" ? estimateTokens(part.text) : IMAGE_TOKEN_ESTIMATE;
    }
  }
  return total;
}
