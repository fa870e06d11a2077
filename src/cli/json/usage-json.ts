import type { RunUsage } from "../../runtime/run-usage.js";
import type { TokenCounts } from "../../session/index.js";

/**
 * The `usage` of the JSON `done` event: the run's usage (`readRunUsage`, the whole session's
 * totals as `/cost` shows them) with its field names snake_case. The top-level counts are the
 * agent's own requests; `compaction` the summary requests alone; `subagents`, present once the
 * `task` tool has started one, their sessions and how many there were.
 */
export function usageJson(usage: RunUsage): Record<string, unknown> {
  const children =
    usage.subagents === undefined
      ? {}
      : { subagents: { sessions: usage.subagents.sessions, ...countsJson(usage.subagents.counts) } };
  return { ...countsJson(usage.chat), compaction: countsJson(usage.compaction), ...children };
}

function countsJson(counts: TokenCounts): Record<string, number> {
  return {
    input_tokens: counts.input,
    output_tokens: counts.output,
    cache_read_tokens: counts.cacheRead,
    cache_write_tokens: counts.cacheWrite,
  };
}
