import { addCounts, type SessionUsage, type TokenCounts } from "../../session/index.js";

/**
 * The `usage` of the JSON `done` event: the whole session's totals (as `/cost` shows them, resumed
 * history included), over every model. The top-level counts are the agent's own requests;
 * `compaction` counts the summary requests alone (add the two for everything billed).
 */
export function usageJson(usage: SessionUsage): Record<string, unknown> {
  return {
    ...countsJson(addCounts(Object.values(usage.chat))),
    compaction: countsJson(addCounts(Object.values(usage.compaction))),
  };
}

function countsJson(counts: TokenCounts): Record<string, number> {
  return {
    input_tokens: counts.input,
    output_tokens: counts.output,
    cache_read_tokens: counts.cacheRead,
    cache_write_tokens: counts.cacheWrite,
  };
}
