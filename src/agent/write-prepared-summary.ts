import { prepareSummary } from "../compaction/index.js";
import type { ModelClient, SummaryRequestUsage } from "../core/index.js";
import { optional } from "../core/index.js";
import type { AgentOptions } from "./agent-options.js";
import { contextForSummariser, summariserPrompt } from "./compaction-controls.js";
import type { WritePrepared } from "./compaction-preparation.js";
import { windowLimits } from "./run-agent-compaction.js";
import { summaryRequester } from "./summary-requester.js";

/**
 * The request a summary prepared ahead sends: for the prefix an overflow now would summarise with
 * half its keep budget (no larger than the configured one), with the summariser figures, the prompt with the
 * pinned notes and the fallback a compaction has. The context is read at once, when it is called;
 * what the requests cost is handed back with the outcome.
 */
export function writePreparedSummary(
  options: AgentOptions,
  active: { model: string; client: ModelClient; overheadTokens: number },
): WritePrepared {
  const { session, keepVerbatimTokens, compactionPrompt, compactionModel } = options;
  return (signal, onTopOf) => {
    const usage: SummaryRequestUsage[] = [];
    const limits = windowLimits({
      options,
      trigger: "overflow",
      activeModel: active.model,
      overheadTokens: active.overheadTokens,
    });
    const outcome = prepareSummary({
      context: contextForSummariser(session),
      // Half the keep budget: the other half is room for the turns added before the overflow, which
      // are kept verbatim after it; past that the summary is refused and written afresh.
      budgetTokens: Math.floor(Math.min(limits.budgetTokens, keepVerbatimTokens) / 2),
      systemPrompt: summariserPrompt(session, compactionPrompt),
      activeModel: active.model,
      ...optional("compactionModel", compactionModel),
      ...optional("figures", limits.figures),
      summarise: summaryRequester(
        (modelId) => (modelId === active.model ? active.client : options.createClient(modelId)),
        undefined,
        (modelId, used) => usage.push({ model: modelId, ...used }),
      ),
      signal,
      ...optional("onTopOf", onTopOf),
    });
    return outcome.then((result) => ({ outcome: result, usage }));
  };
}
