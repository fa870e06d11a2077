import { extractFacts } from "../compaction/extract-facts.js";
import type { Turn } from "../core/index.js";
import { extractInstructions } from "./extract-instructions.js";
import { FIDELITY_FACT_KINDS, type FidelityFact } from "./fidelity-fact.js";

/**
 * The facts a summary of `turns` should keep, grouped by kind (paths, commands, errors,
 * instructions) and oldest first within a kind: the paths, commands and error lines that restored
 * facts are drawn from (extractFacts), and the user's explicit instructions. Deterministic.
 */
export function extractFidelityFacts(turns: readonly Turn[]): FidelityFact[] {
  // Task headlines are restored whole, not scored: the summary is not expected to repeat them.
  const restorable = extractFacts(turns)
    .reverse()
    .flatMap((fact): FidelityFact[] => (fact.kind === "task" ? [] : [{ kind: fact.kind, text: fact.text }]));
  const all = [...restorable, ...extractInstructions(turns)];
  return FIDELITY_FACT_KINDS.flatMap((kind) => all.filter((fact) => fact.kind === kind));
}
