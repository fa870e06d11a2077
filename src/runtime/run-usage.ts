import { addCounts, readSessionUsage, type TokenCounts } from "../session/index.js";
import type { RunContext } from "./run-context.js";
import { readSubagentUsage } from "./subagent-usage.js";

/**
 * The whole session's token totals (as `/cost` counts them, resumed history included), over every
 * model: `chat` the agent's own requests, `compaction` the summary requests alone (add the two for
 * everything billed), `subagents` (once the `task` tool has started one) their sessions' requests
 * and summary requests together, and how many sessions there were.
 */
export interface RunUsage {
  chat: TokenCounts;
  compaction: TokenCounts;
  subagents?: { sessions: number; counts: TokenCounts };
}

/** The run's usage now, read from its session file and its subagents' files. */
export async function readRunUsage(run: RunContext): Promise<RunUsage> {
  const [own, subagents] = await Promise.all([readSessionUsage(run.session.path), readSubagentUsage(run)]);
  const usage: RunUsage = {
    chat: addCounts(Object.values(own.chat)),
    compaction: addCounts(Object.values(own.compaction)),
  };
  if (subagents.sessions === 0) return usage;
  const counts = addCounts([
    ...Object.values(subagents.usage.chat),
    ...Object.values(subagents.usage.compaction),
  ]);
  return { ...usage, subagents: { sessions: subagents.sessions, counts } };
}
