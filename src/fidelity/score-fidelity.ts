import { factMatcher } from "./fact-matcher.js";
import type { FidelityFact } from "./fidelity-fact.js";

/** One fact and where it survived. `answered*` are null when that probe was not made. */
export interface FactScore extends FidelityFact {
  /** The summary alone states it. */
  inSummary: boolean;
  /** The whole compaction block (summary, restored facts, pinned notes) states it. */
  inBlock: boolean;
  /** The model's answer to the probe after the compacted context states it. */
  answered: boolean | null;
  /** The answer after the compacted context, with the `recall` tool to look things up, states it. */
  answeredRecall: boolean | null;
  /** The model's answer to the probe after the full, uncompacted context states it. */
  answeredFull: boolean | null;
}

export interface FidelityTotals {
  facts: number;
  inSummary: number;
  inBlock: number;
  answered: number | null;
  answeredRecall: number | null;
  answeredFull: number | null;
}

/** What was said back to the probes: undefined for a probe that was not made. */
export interface ProbeAnswers {
  compacted?: string;
  /** After the compacted context with the `recall` tool available (its calls answered). */
  recall?: string;
  full?: string;
}

/**
 * Scores each fact: literal recall in the summary and in the whole block, and, for each probe
 * answer given, whether the answer states it (normalised matching; no judge model).
 */
export function scoreFidelity(
  facts: readonly FidelityFact[],
  summary: string,
  block: string,
  answers: ProbeAnswers = {},
): FactScore[] {
  const inSummary = factMatcher(summary);
  const inBlock = factMatcher(block);
  const compacted = answers.compacted === undefined ? undefined : factMatcher(answers.compacted);
  const recall = answers.recall === undefined ? undefined : factMatcher(answers.recall);
  const full = answers.full === undefined ? undefined : factMatcher(answers.full);
  return facts.map((fact) => ({
    kind: fact.kind,
    text: fact.text,
    inSummary: inSummary.states(fact),
    inBlock: inBlock.states(fact),
    answered: compacted === undefined ? null : compacted.states(fact),
    answeredRecall: recall === undefined ? null : recall.states(fact),
    answeredFull: full === undefined ? null : full.states(fact),
  }));
}

/** The counts of {@link scoreFidelity}'s scores; a probe not made counts null. */
export function fidelityTotals(scores: readonly FactScore[], answers: ProbeAnswers = {}): FidelityTotals {
  const count = (test: (score: FactScore) => boolean): number => scores.filter(test).length;
  return {
    facts: scores.length,
    inSummary: count((score) => score.inSummary),
    inBlock: count((score) => score.inBlock),
    answered: answers.compacted === undefined ? null : count((score) => score.answered === true),
    answeredRecall: answers.recall === undefined ? null : count((score) => score.answeredRecall === true),
    answeredFull: answers.full === undefined ? null : count((score) => score.answeredFull === true),
  };
}
