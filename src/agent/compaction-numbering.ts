import { compactionTurns, numberTurns, type RetentionPlan } from "../compaction/index.js";
import type { CompactionTurns } from "../core/index.js";
import type { EffectiveTurnNumbers } from "../session/index.js";

// Moved to the session layer, where the task list reads it too; re-exported for the agent's callers.
export { effectiveNumbering } from "../session/effective-numbering.js";

/** What a compaction following `plan` records of turn numbers: its range, and each summarised turn's number. */
export function planNumbers(
  plan: RetentionPlan,
  numbering: EffectiveTurnNumbers | undefined,
): { turns?: CompactionTurns; summarised: Array<number | undefined> } {
  if (numbering === undefined) return { summarised: [] };
  const turns = compactionTurns(plan, numbering);
  const summarised = numberTurns(plan.summarise, numbering.numbers);
  return turns === undefined ? { summarised } : { turns, summarised };
}
