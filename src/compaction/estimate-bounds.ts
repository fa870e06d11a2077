import type { Message } from "../core/index.js";

/** Framing every provider adds around a message (role markers, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/** Framing around one tool call or tool result (ids, names, wrappers). */
export const TOOL_BLOCK_OVERHEAD_TOKENS = 8;

/**
 * An upper bound of `estimateTokens(text)` from the text's length alone (and whether it is ASCII),
 * without the per-character scan. In ASCII text every character costs at most a token, except a
 * digit after a space, which costs two while that space costs at most a quarter: at most 9/8 of a
 * token a character. Otherwise a code unit costs at most two tokens, and a high surrogate that ends
 * the text three: at most two a code unit plus one.
 */
export function estimateTokensUpperBound(text: string): number {
  const length = text.length;
  // A code unit of 0x80 or above takes two or more UTF-8 bytes, so the byte length equals the
  // length exactly for ASCII text; Node counts it without a JavaScript loop.
  if (Buffer.byteLength(text, "utf8") === length) return Math.ceil(length * 1.125);
  return 2 * length + 1;
}

/**
 * An upper bound of a message's estimate without its images and thinking (what sizing compares
 * usage against), built like estimateMessageBreakdown with every text estimate replaced by
 * {@link estimateTokensUpperBound}.
 */
export function estimateFloorUpperBound(message: Message): number {
  let bound = MESSAGE_OVERHEAD_TOKENS;
  if (message.role === "user") {
    for (const part of message.content)
      if (part.type === "text") bound += estimateTokensUpperBound(part.text);
  } else if (message.role === "assistant") {
    for (const block of message.content) {
      if (block.type === "text") bound += estimateTokensUpperBound(block.text);
      else if (block.type === "tool-call") {
        const args = JSON.stringify(block.arguments) ?? "";
        bound +=
          TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokensUpperBound(block.name) + estimateTokensUpperBound(args);
      }
    }
  } else {
    for (const block of message.content) {
      bound += TOOL_BLOCK_OVERHEAD_TOKENS + estimateTokensUpperBound(block.toolName);
      for (const part of block.content)
        if (part.type === "text") bound += estimateTokensUpperBound(part.text);
    }
  }
  return bound;
}
