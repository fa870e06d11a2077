import type { Session } from "./session.js";
import { type EffectiveTurnNumbers, effectiveTurnNumbers, turnsBefore } from "./turn-numbers.js";

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
