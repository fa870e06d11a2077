import type { CompactionTurns, Turn } from "../core/index.js";
import type { RetentionPlan } from "./plan-retention.js";

/**
 * The turn number of each of `turns` (grouped from one context), given the numbers of that
 * context's user messages in order: each turn that starts with a user message takes the next one;
 * a leading turn without one (a context that starts oddly) has none.
 */
export function numberTurns(
  turns: readonly Turn[],
  userNumbers: readonly number[],
): Array<number | undefined> {
  let next = 0;
  return turns.map((turn) => (turn.messages[0]?.role === "user" ? userNumbers[next++] : undefined));
}

/**
 * Which turns a compaction following `plan` covers: the block stands for turns 1 to the last one it
 * summarises, and its copies repeat the kept turns (the turn in flight last). Undefined when the
 * summarised turns have no number.
 */
export function compactionTurns(
  plan: RetentionPlan,
  numbering: { numbers: readonly number[]; total: number },
): CompactionTurns | undefined {
  const kept = plan.inFlight === undefined ? plan.keep : [...plan.keep, plan.inFlight];
  const numbers = numberTurns([...plan.summarise, ...kept], numbering.numbers);
  const through = numbers
    .slice(0, plan.summarise.length)
    .filter((number) => number !== undefined)
    .at(-1);
  if (through === undefined) return undefined;
  return {
    through,
    kept: numbers.slice(plan.summarise.length).filter((number) => number !== undefined),
    total: numbering.total,
  };
}
