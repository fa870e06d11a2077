import type { Message } from "../core/index.js";
import { estimateMessageBreakdown } from "./estimate-tokens.js";

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
 * usage against): the same walk as estimateMessageBreakdown with every text estimate replaced by
 * {@link estimateTokensUpperBound}.
 */
export function estimateFloorUpperBound(message: Message): number {
  const bound = estimateMessageBreakdown(message, estimateTokensUpperBound);
  return bound.tokens - bound.imageTokens - bound.thinkingTokens;
}
