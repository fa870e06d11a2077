import type { SubagentUsage } from "../../runtime/commands/describe-cost.js";
import type { RunContext } from "../../runtime/run-context.js";
import { readSubagentUsage } from "../../runtime/subagent-usage.js";
import { addCounts, readSessionUsage, type SessionUsage, type TokenCounts } from "../../session/index.js";

/** The `usage` of the JSON `done` event for this run's session, its subagents' sessions read too. */
export async function runUsageJson(run: RunContext): Promise<Record<string, unknown>> {
  const [own, subagents] = await Promise.all([readSessionUsage(run.session.path), readSubagentUsage(run)]);
  return usageJson(own, subagents);
}

/**
 * The `usage` of the JSON `done` event: the whole session's totals (as `/cost` shows them, resumed
 * history included), over every model. The top-level counts are the agent's own requests;
 * `compaction` counts the summary requests alone (add the two for everything billed); `subagents`,
 * present once the `task` tool has started one, counts their sessions (requests and summary
 * requests together) and how many there were.
 */
export function usageJson(usage: SessionUsage, subagents?: SubagentUsage): Record<string, unknown> {
  const children =
    subagents === undefined || subagents.sessions === 0
      ? {}
      : {
          subagents: {
            sessions: subagents.sessions,
            ...countsJson(
              addCounts([
                ...Object.values(subagents.usage.chat),
                ...Object.values(subagents.usage.compaction),
              ]),
            ),
          },
        };
  return {
    ...countsJson(addCounts(Object.values(usage.chat))),
    compaction: countsJson(addCounts(Object.values(usage.compaction))),
    ...children,
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
