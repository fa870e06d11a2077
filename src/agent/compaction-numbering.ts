import { compactionTurns, numberTurns, type RetentionPlan } from "../compaction/index.js";
import type { CompactionTurns } from "../core/index.js";
import {
  type EffectiveTurnNumbers,
  effectiveTurnNumbers,
  type Session,
  turnsBefore,
} from "../session/index.js";

/**
 * The turn numbers of the session's effective context. A compaction in effect that was written
 * before turns were numbered does not say how many came before it: the file is counted then (by
 * the first bytes of its lines, once per such compaction). Undefined when even that fails.
 */
export async function effectiveNumbering(session: Session): Promise<EffectiveTurnNumbers | undefined> {
  const active = session.activeEntries();
  // The turns a rewind took out of the suffix in memory still count (turn N is the file's N-th).
  const rewound = session.rewoundTurns?.() ?? new Map<string, number>();
  const known = effectiveTurnNumbers(active, undefined, rewound);
  if (known !== undefined || !session.hasFile) return known;
  try {
    return effectiveTurnNumbers(active, await turnsBefore(session.path, active, rewound), rewound);
  } catch {
    return undefined;
  }
}

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
