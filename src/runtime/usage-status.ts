import type { ModelPrice } from "../config/index.js";
import { readSessionUsage, type SessionUsage } from "../session/index.js";
import { priceOf } from "./commands/describe-cost.js";
import { contextUsage, type ShownWindow } from "./context-usage.js";
import type { RunContext } from "./run-context.js";

/** How full the context is and what the session has cost: what a status display (an editor's) shows. */
export interface UsageStatus {
  /** Tokens the next request carries, system prompt and tools included (`contextSize`). */
  used: number;
  /** Whether `used` rests on the provider's usage or on the local estimate alone. */
  usedFrom: "usage" | "estimate";
  /** The window learned, reported, configured or published (`knownWindow`); undefined when none is known. */
  window: ShownWindow | undefined;
  /**
   * The session's cost so far in US dollars (resumed history and summary requests included), from
   * config "prices"; undefined when no price covers any model the session used.
   */
  cost: number | undefined;
}

/** The run's usage status now; reads the session file for the cost (only the lines with usage are parsed). */
export async function usageStatus(run: RunContext): Promise<UsageStatus> {
  const { size, window } = await contextUsage(run, run.agent.learnedWindow()?.contextWindow);
  const usage = run.session.hasFile ? await readSessionUsage(run.session.path) : undefined;
  return {
    used: size.tokens,
    usedFrom: size.source,
    window,
    cost: usage === undefined ? undefined : sessionCost(usage, run.prices),
  };
}

/**
 * What every priced model of the session cost, chat and summary requests alike; undefined when none
 * is priced. A model used without a price counts for nothing (as `/cost` leaves it out of its total).
 */
export function sessionCost(
  usage: SessionUsage,
  prices: Record<string, ModelPrice> = {},
): number | undefined {
  const costs = [...Object.entries(usage.chat), ...Object.entries(usage.compaction)]
    .map(([model, counts]) => priceOf(counts, prices[model]))
    .filter((cost): cost is number => cost !== undefined);
  return costs.length === 0 ? undefined : costs.reduce((sum, cost) => sum + cost, 0);
}
