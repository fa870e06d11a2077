import type { EffectiveContext } from "../core/index.js";
import type { CompactionOutcome } from "./run-compaction.js";

/**
 * The effective context after an outcome, as replay rebuilds it: a compaction resets everything
 * before it and is followed by the kept messages (spec rules 3 and 4); any other outcome leaves the
 * context as it was.
 */
export function applyCompaction(context: EffectiveContext, outcome: CompactionOutcome): EffectiveContext {
  if (outcome.type !== "compacted") return context;
  return { compaction: { type: "compaction", summary: outcome.record.summary }, messages: [...outcome.kept] };
}
