/**
 * Provider usage normalised per DESIGN "Sizing". A message whose provider reported nothing has
 * `usage: undefined`, never zeros.
 */
export interface Usage {
  /** P: every prompt token the provider counted, cached ones included. */
  promptTokens: number;
  /** O: every output token, reasoning included. */
  outputTokens: number;
  /** The part of O that is sent back as input on the next request (visible text and tool calls). */
  resentOutputTokens: number;
  /** Prompt tokens served from cache (part of promptTokens). */
  cacheReadTokens?: number;
  /** Prompt tokens written to cache (part of promptTokens). */
  cacheWriteTokens?: number;
  /**
   * The part of cacheWriteTokens written to a cache that lives an hour (Anthropic's one-hour
   * breakpoints, priced higher than the five-minute ones). Absent when none was.
   */
  longCacheWriteTokens?: number;
  /** Hidden reasoning tokens (part of outputTokens). */
  reasoningTokens?: number;
}
