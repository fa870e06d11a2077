/**
 * `max_tokens` is required by the Messages API. Without a configured value, ask for a generous
 * amount every model of that family accepts: claude-3 (4096) and claude-3.5 (8192) cap lower.
 */
export function defaultMaxTokens(model: string): number {
  if (/claude-3-5|claude-3\.5/.test(model)) return 8192;
  if (/claude-3-(opus|sonnet|haiku)|claude-2|claude-instant/.test(model)) return 4096;
  return 16_384;
}
